package org.ldpgraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** No input crashes the JVM: each gets an exception naming it, and nothing changes. */
class BadInputTest {
  @Test
  void argumentsAreCheckedBeforeTheyCrossJni() {
    assertThrows(IllegalArgumentException.class, () -> UserData.of(-1, new int[0]));
    assertThrows(IllegalArgumentException.class, () -> UserData.of(0, null));
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> UserData.of(0, new int[] {3, -4}));
    assertTrue(negative.getMessage().contains("neighbours[1] = -4"), negative.getMessage());
    assertThrows(IllegalArgumentException.class, () -> UserData.of(0, new int[0]).withLabel(-1));
    assertThrows(IllegalArgumentException.class,
                 () -> UserData.of(0, new int[0]).withFeatures(new double[] {Double.NaN}));
    assertThrows(IllegalArgumentException.class, () -> new Graph.Builder(1, 1));
    assertThrows(IllegalArgumentException.class, () -> Graph.fromConfig(null));
    try (Graph g = new Graph.Builder(1, 10).build(); RandomSource rng = RandomSource.seededNotPrivate(1)) {
      assertThrows(IllegalArgumentException.class, () -> g.buildReport(null, UserData.of(0, new int[0])));
      assertThrows(IllegalArgumentException.class, () -> g.buildReport(rng, null));
      assertThrows(IllegalArgumentException.class, () -> g.perturbEdges(rng, 0, null));
      assertThrows(IllegalArgumentException.class, () -> g.perturbLabel(rng, -2));
    }
  }

  @Test
  void theNativeLibraryRefusesWhatOnlyItCanJudge() {
    LdpgraphException epsilon =
        assertThrows(LdpgraphException.class, () -> new Graph.Builder(1, 10).edges(EdgeMechanism.DPRR, -1).build());
    assertEquals(LdpgraphException.INVALID_ARGUMENT, epsilon.code());
    LdpgraphException junk = assertThrows(LdpgraphException.class, () -> Graph.fromConfig(new byte[] {1, 2, 3}));
    assertEquals(LdpgraphException.INVALID_ARGUMENT, junk.code());
    assertTrue(junk.getMessage().contains("graph config"), junk.getMessage());
    try (Graph g = new Graph.Builder(1, 10).build(); RandomSource rng = RandomSource.seededNotPrivate(1)) {
      // A friend id past n, the user herself, a duplicate, a huge list.
      for (int[] friends : new int[][] {{10}, {3, 3}, new int[1_000_000]}) {
        LdpgraphException e = assertThrows(LdpgraphException.class,
                                           () -> g.buildReport(rng, UserData.of(3, friends)));
        assertTrue(e.code() == LdpgraphException.OUT_OF_RANGE || e.code() == LdpgraphException.INVALID_ARGUMENT,
                   e.getMessage());
      }
      assertThrows(LdpgraphException.class, () -> g.buildReport(rng, UserData.of(10, new int[0])));
      // Empty is fine.
      assertTrue(g.buildReport(rng, UserData.of(3, new int[0])).length > 0);
    }
  }

  @Test
  void closedObjectsThrowInsteadOfCrashing() throws Exception {
    Graph g = new Graph.Builder(1, 10).build();
    RandomSource rng = RandomSource.seededNotPrivate(1);
    g.close();
    g.close();  // twice is fine
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> g.buildReport(rng, UserData.of(0, new int[0])));
    assertTrue(closed.getMessage().contains("Graph is closed"));
    assertThrows(IllegalStateException.class, g::numUsers);
    rng.close();
    try (Graph h = new Graph.Builder(1, 10).build()) {
      assertThrows(IllegalStateException.class, () -> h.perturbLabel(rng, 0));
    }
    // The native methods called directly with a freed (zero) handle: an exception, not a crash.
    Method id = Graph.class.getDeclaredMethod("nativeId", long.class);
    id.setAccessible(true);
    Exception e = assertThrows(Exception.class, () -> id.invoke(null, 0L));
    assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
  }
}
