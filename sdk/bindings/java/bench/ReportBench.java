import java.nio.file.Files;
import java.nio.file.Path;
import org.ldpgraph.EdgeMechanism;
import org.ldpgraph.Graph;
import org.ldpgraph.RandomSource;
import org.ldpgraph.UserData;

/**
 * The Java side of the overhead benchmark: the same DPRR report as
 * report_bench.c, built through the Java library; then the leak check:
 * `leakReports` reports each from its own RandomSource, built and closed,
 * with the process's resident size after a warm-up and at the end.
 * Prints key=value lines.
 *   java ReportBench N DEGREE REPORTS LEAK_REPORTS
 */
public final class ReportBench {
  private static long rssKb() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }
    return 0;
  }

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    int degree = Integer.parseInt(args[1]);
    long reports = Long.parseLong(args[2]);
    long leakReports = Long.parseLong(args[3]);
    int[] friends = new int[degree];
    for (int i = 0; i < degree; i++) friends[i] = 1 + i * (n / (degree + 1));
    UserData user = UserData.of(0, friends);
    try (Graph graph = new Graph.Builder(1, n).edges(EdgeMechanism.DPRR, 1).build();
         RandomSource rng = RandomSource.os()) {
      for (int i = 0; i < Math.min(reports, 1000); i++) graph.buildReport(rng, user);  // JIT warm-up
      long bytes = 0;
      long start = System.nanoTime();
      for (long r = 0; r < reports; r++) bytes += graph.buildReport(rng, user).length;
      double us = (System.nanoTime() - start) / 1e3 / reports;
      System.out.printf("java_us_per_report=%.2f%njava_report_bytes=%d%n", us, bytes / reports);

      long warm = leakReports / 10, rssWarm = 0;
      for (long r = 0; r < leakReports; r++) {
        if (r == warm) {
          System.gc();
          rssWarm = rssKb();
        }
        try (RandomSource own = RandomSource.os()) {
          graph.buildReport(own, user);
        }
      }
      System.gc();
      long rssEnd = rssKb();
      System.out.printf("leak_reports=%d%nrss_after_warmup_kb=%d%nrss_end_kb=%d%nrss_growth=%.4f%n", leakReports,
                        rssWarm, rssEnd, (double) (rssEnd - rssWarm) / rssWarm);
    }
  }
}
