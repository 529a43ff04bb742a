/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0
 */
package io.spindex.mapreduce;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;

/**
 * Hadoop's own MiniDFSCluster and MiniYARNCluster as a process on 127.0.0.1, for {@code
 * scripts/it-yarn}: the real Spark distribution's {@code spark-submit --master yarn} talks to it
 * through the configuration this writes, as it would to any YARN cluster.
 *
 * <pre>
 * MiniHadoop up CONF_DIR          start; write CONF_DIR/core-site.xml and yarn-site.xml, then
 *                                 CONF_DIR/ready; stop both clusters when CONF_DIR/stop appears
 * MiniHadoop put LOCAL... DIR     copy local files or directories into DIR on HDFS
 * MiniHadoop get PATH LOCAL       copy PATH (a file or directory) from HDFS to LOCAL
 * </pre>
 *
 * {@code put} and {@code get} read the cluster's address from {@code $HADOOP_CONF_DIR}. The working
 * directory holds the clusters' data and logs ({@code target/} of the current directory).
 */
public final class MiniHadoop {
  private MiniHadoop() {}

  public static void main(String[] args) throws Exception {
    if (args.length >= 2 && args[0].equals("up")) {
      up(Paths.get(args[1]));
    } else if (args.length >= 3 && args[0].equals("put")) {
      try (FileSystem fs = FileSystem.get(clientConf())) {
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(args[args.length - 1]);
        fs.mkdirs(dir);
        for (int i = 1; i < args.length - 1; i++) {
          fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(args[i]), dir);
        }
      }
    } else if (args.length == 3 && args[0].equals("get")) {
      try (FileSystem fs = FileSystem.get(clientConf())) {
        fs.copyToLocalFile(
            false,
            new org.apache.hadoop.fs.Path(args[1]),
            new org.apache.hadoop.fs.Path(args[2]),
            true);
      }
    } else {
      System.err.println("usage: MiniHadoop up CONF_DIR | put LOCAL... DIR | get PATH LOCAL");
      System.exit(2);
    }
  }

  private static Configuration clientConf() {
    String dir = System.getenv("HADOOP_CONF_DIR");
    if (dir == null) {
      throw new IllegalStateException("HADOOP_CONF_DIR is not set");
    }
    Configuration c = new Configuration();
    c.addResource(new org.apache.hadoop.fs.Path(dir, "core-site.xml"));
    return c;
  }

  private static void up(Path confDir) throws Exception {
    Files.createDirectories(confDir);
    Configuration conf = new YarnConfiguration();
    String base = new File("target/minihadoop").getAbsolutePath();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base + "/dfs");
    // Loopback only: every server binds to 127.0.0.1, and advertises it.
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set(YarnConfiguration.RM_HOSTNAME, "127.0.0.1");
    conf.set(YarnConfiguration.RM_BIND_HOST, "127.0.0.1");
    conf.set(YarnConfiguration.NM_BIND_HOST, "127.0.0.1");
    conf.set(YarnConfiguration.NM_ADDRESS, "127.0.0.1:0");
    conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, "127.0.0.1:0");
    conf.set(YarnConfiguration.NM_WEBAPP_ADDRESS, "127.0.0.1:0");
    conf.set(YarnConfiguration.RM_WEBAPP_ADDRESS, "127.0.0.1:0");
    conf.set(YarnConfiguration.TIMELINE_SERVICE_ENABLED, "false");
    // Two 2-core NodeManagers of 2.5 GiB: an application master and two executors fit, one
    // application at a time (FIFO: no queue capacity limits an AM).
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 2560);
    conf.setInt(YarnConfiguration.NM_VCORES, 2);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, 2560);
    conf.set(
        YarnConfiguration.RM_SCHEDULER,
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler");
    nodeManagerChecks(conf);
    conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 600); // container logs stay readable
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    conf.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    MiniYARNCluster yarn = new MiniYARNCluster("minihadoop", 2, 1, 1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  yarn.stop();
                  dfs.shutdown();
                }));
    yarn.init(conf);
    yarn.start();
    awaitNodeManagers(yarn.getResourceManager(), 2);
    Configuration started = yarn.getConfig();
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", conf.get("fs.defaultFS"));
    write(core, confDir.resolve("core-site.xml"));
    Configuration site = new Configuration(false);
    for (Map.Entry<String, String> e : started) {
      if (e.getKey().startsWith("yarn.")) {
        site.set(e.getKey(), started.get(e.getKey()));
      }
    }
    write(site, confDir.resolve("yarn-site.xml"));
    Files.write(confDir.resolve("ready"), new byte[0]);
    System.out.println(
        "MiniHadoop up: "
            + conf.get("fs.defaultFS")
            + ", ResourceManager "
            + started.get(YarnConfiguration.RM_ADDRESS)
            + ", 2 NodeManagers");
    Path stop = confDir.resolve("stop");
    while (!Files.exists(stop)) {
      Thread.sleep(200);
    }
    yarn.stop();
    dfs.shutdown();
    System.out.println("MiniHadoop down");
    System.exit(0);
  }

  /**
   * The NodeManager checks a test cluster must not make: memory (the containers' JVMs are sized by
   * the tests) and disk fullness. A NodeManager whose disk is above 90% used (YARN's default) marks
   * its local directories bad, turns unhealthy and is given no containers, and a job then waits for
   * its application master for ever: a shared CI disk is often that full.
   */
  static void nodeManagerChecks(Configuration conf) {
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100f);
    conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 0);
  }

  /**
   * Waits until {@code count} NodeManagers run healthy on {@code rm}; fails with each one's state
   * and health report when one turns unhealthy or 60 s pass, rather than leave a job waiting.
   */
  static void awaitNodeManagers(ResourceManager rm, int count) throws InterruptedException {
    long until = System.nanoTime() + 60_000_000_000L;
    while (true) {
      Collection<RMNode> nodes = rm.getRMContext().getRMNodes().values();
      long running = nodes.stream().filter(n -> n.getState() == NodeState.RUNNING).count();
      boolean unhealthy = nodes.stream().anyMatch(n -> n.getState() == NodeState.UNHEALTHY);
      if (running >= count) {
        return;
      }
      if (unhealthy || System.nanoTime() > until) {
        StringBuilder b = new StringBuilder();
        for (RMNode n : nodes) {
          b.append("\n  ").append(n.getNodeID()).append(' ').append(n.getState());
          b.append(": ").append(n.getHealthReport());
        }
        throw new IllegalStateException(
            running
                + " of "
                + count
                + " NodeManagers running healthy"
                + (unhealthy ? "" : " in 60 s")
                + b);
      }
      Thread.sleep(100);
    }
  }

  private static void write(Configuration c, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = new FileOutputStream(tmp.toFile())) {
      c.writeXml(out);
    }
    Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }
}
