package org.ldpgraph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An embedding graph's owner (GW-LDP) sends her graph as one summary cell, once, from Java. */
class EmbeddingReportTest {
  /** The daemon's binary configuration of a summary graph (docs/wire-format.md, "LC"). */
  static byte[] summaryConfig(long graphId) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {0x4C, 0x43, 1, 0x04 | 0x08});
    out.write((int) graphId);  // varints below 128: one byte each
    out.write(2);              // n: nominal, the owner's size stays on her device
    out.write(0);              // edges: none
    out.writeBytes(le(Double.POSITIVE_INFINITY));
    out.write(0);              // allocation
    out.write(0);              // n_max
    out.write(16);             // LocalLap resolution (unused)
    out.write(2);              // embedding dims
    out.writeBytes(le(4.0));   // epsilon
    out.writeBytes(new byte[] {2, 2, 10, 100});  // value bins, size bins, min and max nodes
    return out.toByteArray();
  }

  static byte[] le(double v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(v).array();
  }

  static double[] filled(int rows, double value) {
    double[] h = new double[rows * 2];
    Arrays.fill(h, value);
    return h;
  }

  @Test
  void aSummaryIsOneCellSentOnceWhateverTheGraphsSize(@TempDir Path dir) throws Exception {
    try (Graph g = Graph.fromConfig(summaryConfig(40));
         Graph users = new Graph.Builder(41, 20).edges(EdgeMechanism.DPRR, 2).build();
         RandomSource rng = RandomSource.os();
         BudgetLedger ledger = BudgetLedger.openFile(dir.resolve("owner.ledger"), 10)) {
      assertEquals(2, g.embeddingDims());
      assertEquals(0, users.embeddingDims());
      byte[] sent = ledger.reportEmbedding(g, rng, filled(57, 0.3), 2, null);
      assertTrue(sent.length < 64);
      assertEquals(4.0, ledger.spent(), 1e-12);
      // Again, with other data: the recorded bytes, nothing spent.
      assertArrayEquals(sent, ledger.reportEmbedding(g, rng, filled(12, 0.9), 2, null));
      assertEquals(4.0, ledger.spent(), 1e-12);

      try (Graph fresh = Graph.fromConfig(summaryConfig(42))) {
        LdpgraphException columns =
            assertThrows(LdpgraphException.class, () -> ledger.reportEmbedding(fresh, rng, new double[9], 3, null));
        assertEquals(LdpgraphException.INVALID_ARGUMENT, columns.code());
        assertThrows(IllegalArgumentException.class, () -> ledger.reportEmbedding(fresh, rng, new double[5], 2, null));
        assertThrows(IllegalArgumentException.class, () -> ledger.reportEmbedding(fresh, rng, null, 2, null));
        LdpgraphException range =
            assertThrows(LdpgraphException.class, () -> ledger.reportEmbedding(fresh, rng, filled(4, 1.5), 2, null));
        assertEquals(LdpgraphException.OUT_OF_RANGE, range.code());
        LdpgraphException label =
            assertThrows(LdpgraphException.class, () -> ledger.reportEmbedding(fresh, rng, filled(4, 0.5), 2, 1));
        assertEquals(LdpgraphException.INVALID_ARGUMENT, label.code());  // the graph collects no class
      }
      LdpgraphException notOwner =
          assertThrows(LdpgraphException.class, () -> ledger.reportEmbedding(users, rng, filled(4, 0.5), 2, null));
      assertEquals(LdpgraphException.FAILED_PRECONDITION, notOwner.code());
      assertEquals(4.0, ledger.spent(), 1e-12);  // no refusal spent anything
    }
  }
}
