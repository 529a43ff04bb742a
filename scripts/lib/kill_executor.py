"""Executor loss for scripts/it-spark-dist: watches a running Spark application through its
driver's REST API and, once the stage with the most tasks has finished at least one task while
others are running and some are still waiting, kills one executor JVM of that application with
SIGKILL. The victim is an executor that has completed a task and is running one, so its index load
has been reported and a task is lost with it. Usage:

  kill_executor.py DRIVER_UI_URL KILL_JSON [TIMEOUT_SECONDS]

Writes what it killed to KILL_JSON (app, executor, pid, tasks done, running and total at the
kill) and exits 0; exits 1 when the application ends, or the timeout passes, without a moment to
kill in. The executor's PID is found by its command line (CoarseGrainedExecutorBackend with this
executor id and application id) in /proc.
"""
import json
import os
import signal
import sys
import time
import urllib.error
import urllib.request

BACKEND = "org.apache.spark.executor.CoarseGrainedExecutorBackend"


def get(url):
    with urllib.request.urlopen(url, timeout=2) as r:
        return json.load(r)


def parent(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            # pid (comm) state ppid ...: comm may hold spaces and parentheses, so from the last ')'.
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def executor_pid(app, executor):
    """The executor's JVM. A JVM that is starting a process (Hadoop's shell commands) has, for an
    instant between fork and exec, a child with the same command line: such a child, whose parent
    is also found, is not the executor; a moment later it is gone, so look again a few times."""
    for _ in range(20):
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    args = f.read().decode("utf-8", "replace").split("\0")
            except OSError:
                continue
            if BACKEND not in args:
                continue
            opts = dict(zip(args, args[1:]))
            if opts.get("--app-id") == app and opts.get("--executor-id") == executor:
                found.append(int(entry))
        jvms = [p for p in found if parent(p) not in found]
        if len(jvms) == 1:
            return jvms[0]
        time.sleep(0.05)
    raise SystemExit("kill_executor: expected one JVM for executor %s of %s, found %s"
                     % (executor, app, found))


def main(ui, out, timeout):
    deadline = time.monotonic() + timeout
    api = ui.rstrip("/") + "/api/v1/applications"
    app = None
    while time.monotonic() < deadline:
        time.sleep(0.1)
        try:
            if app is None:
                apps = get(api)
                if not apps:
                    continue
                app = apps[0]["id"]
            stages = get("%s/%s/stages?status=active" % (api, app))
        except (urllib.error.URLError, OSError, ValueError):
            if app is not None:
                break  # the driver has gone: the application ended
            continue
        if not stages:
            continue
        stage = max(stages, key=lambda s: s["numTasks"])
        done, running, total = stage["numCompleteTasks"], stage["numActiveTasks"], stage["numTasks"]
        if done < 1 or running < 1 or done + running >= total:
            continue
        try:
            executors = get("%s/%s/executors" % (api, app))
        except (urllib.error.URLError, OSError, ValueError):
            continue
        victims = [e for e in executors
                   if e["id"] != "driver" and e["activeTasks"] >= 1 and e["completedTasks"] >= 1]
        if not victims:
            continue
        victim = victims[0]["id"]
        pid = executor_pid(app, victim)
        os.kill(pid, signal.SIGKILL)
        record = {"app": app, "executor": victim, "pid": pid, "stage": stage["stageId"],
                  "tasks done": done, "tasks running": running, "tasks": total}
        with open(out, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1)
        print("killed executor %s (pid %d) of %s: SIGKILL after %d of %d tasks, %d running"
              % (victim, pid, app, done, total, running))
        return 0
    print("kill_executor: no moment to kill an executor (app %s): the job ended first or never "
          "started; give it more input or smaller splits" % app, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 300))
