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

  @Test
  void roundsOfAnUnchangedUserCostOneRound(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("rounds.ledger");
    UserData user = UserData.of(4, new int[] {1, 2, 3}).withLabel(1);
    UserData moved = UserData.of(4, new int[] {1, 2, 3, 9}).withLabel(1);
    try (Graph g = new Graph.Builder(7, 50).edges(EdgeMechanism.RR_DEGREE, 2).label(3, 1).build();
         RandomSource rng = RandomSource.os()) {
      byte[] first;
      try (BudgetLedger ledger = BudgetLedger.openFile(file, 100)) {
        first = ledger.reportRound(g, rng, user, 1);
        for (long round = 2; round <= 30; ++round) ledger.reportRound(g, rng, user, round);
        PrivacyLoss loss = ledger.loss(7);
        assertEquals(3.0, loss.epsilon, 1e-12);
        assertEquals(90.0, loss.naiveEpsilon, 1e-9);
        assertEquals(30, loss.rounds);
        assertEquals(30, loss.lastRound);
        assertEquals(1.0, loss.labelEpsilon, 1e-12);
        assertArrayEquals(ledger.reportRound(g, rng, user, 30), ledger.reportRound(g, rng, user, 30));
        LdpgraphException back = assertThrows(LdpgraphException.class, () -> ledger.reportRound(g, rng, user, 2));
        assertEquals(LdpgraphException.FAILED_PRECONDITION, back.code());
        assertThrows(IllegalArgumentException.class, () -> ledger.reportRound(g, rng, user, -1));
        LdpgraphException once = assertThrows(LdpgraphException.class, () -> ledger.report(g, rng, user));
        assertEquals(LdpgraphException.FAILED_PRECONDITION, once.code());
      }
      try (BudgetLedger again = BudgetLedger.openFile(file, 100)) {
        again.reportRound(g, rng, moved, 31);  // one friend more: new coins, after a restart
        PrivacyLoss loss = again.loss(7);
        assertEquals(31, loss.rounds);
        assertEquals(true, loss.epsilon > 3.0);
        LdpgraphException none = assertThrows(LdpgraphException.class, () -> again.loss(8));
        assertEquals(LdpgraphException.FAILED_PRECONDITION, none.code());
      }
      assertEquals(true, first.length > 20);
    }
  }
}
