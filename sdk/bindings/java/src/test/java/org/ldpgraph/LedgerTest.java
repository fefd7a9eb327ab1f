package org.ldpgraph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger in a file of the app's storage: once per graph, across reopening, under its cap. */
class LedgerTest {
  @Test
  void aReportIsMadeOnceAndTheCapHolds(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("privacy.ledger");
    UserData user = UserData.of(4, new int[] {1, 2, 3});
    byte[] first;
    try (Graph g = new Graph.Builder(1, 20).edges(EdgeMechanism.DPRR, 2).build();
         Graph other = new Graph.Builder(2, 20).edges(EdgeMechanism.DPRR, 2).build();
         RandomSource rng = RandomSource.os()) {
      try (BudgetLedger ledger = BudgetLedger.openFile(file, 3)) {
        first = ledger.report(g, rng, user);
        assertArrayEquals(first, ledger.report(g, rng, user));
        assertEquals(2.0, ledger.spent(), 1e-12);
        LdpgraphException over = assertThrows(LdpgraphException.class, () -> ledger.report(other, rng, user));
        assertEquals(LdpgraphException.RESOURCE_EXHAUSTED, over.code());
      }
      try (BudgetLedger again = BudgetLedger.openFile(file, 3)) {
        assertArrayEquals(first, again.report(g, rng, user));  // the app restarted: the same bytes
      }
    }
    Files.write(file, new byte[] {9, 9, 9});
    LdpgraphException corrupt = assertThrows(LdpgraphException.class, () -> BudgetLedger.openFile(file, 3));
    assertEquals(LdpgraphException.DATA_LOSS, corrupt.code());
    assertThrows(IllegalArgumentException.class, () -> BudgetLedger.openFile(file, 0));
  }
}
