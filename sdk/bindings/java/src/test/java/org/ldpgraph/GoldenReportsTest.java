package org.ldpgraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Java library builds byte for byte the reports the C++ SDK builds (golden_reports.cc). */
class GoldenReportsTest {
  private static Map<String, String> golden() throws IOException {
    String file = System.getProperty("ldpgraph.golden");
    assertTrue(file != null, "-Dldpgraph.golden=FILE: the C++ SDK's reports");
    Map<String, String> out = new HashMap<>();
    List<String> lines = Files.readAllLines(Path.of(file));
    for (String line : lines) {
      String[] parts = line.split(" ");
      out.put(parts[0], parts[1]);
    }
    return out;
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) s.append(String.format("%02x", b & 0xff));
    return s.toString();
  }

  private static String build(EdgeMechanism m, boolean features, boolean label) {
    Graph.Builder b = new Graph.Builder(11, 50).edges(m, 2);
    if (features) b.features(6, 1.5, 0, 1);
    if (label) b.label(3, 1);
    UserData user = UserData.of(7, new int[] {1, 4, 9, 16, 25, 36});
    if (features) user = user.withFeatures(new double[] {0.1, 0.5, 0.9, 0.3, 0.7, 0.2});
    if (label) user = user.withLabel(2);
    try (Graph graph = b.build(); RandomSource rng = RandomSource.seededNotPrivate(42)) {
      return hex(graph.buildReport(rng, user));
    }
  }

  @Test
  void everyMechanismMatchesTheCppSdk() throws IOException {
    Map<String, String> expected = golden();
    assertEquals(6, expected.size());
    assertEquals(expected.get("dprr"), build(EdgeMechanism.DPRR, false, false));
    assertEquals(expected.get("dprr-features-label"), build(EdgeMechanism.DPRR, true, true));
    assertEquals(expected.get("rr"), build(EdgeMechanism.RR, false, true));
    assertEquals(expected.get("rr-degree"), build(EdgeMechanism.RR_DEGREE, true, false));
    assertEquals(expected.get("locallap"), build(EdgeMechanism.LOCAL_LAP, false, false));
    assertEquals(expected.get("none-features-label"), build(EdgeMechanism.NONE, true, true));
  }
}
