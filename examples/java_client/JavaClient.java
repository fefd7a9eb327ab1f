import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.ldpgraph.BudgetLedger;
import org.ldpgraph.DeviceResult;
import org.ldpgraph.Graph;
import org.ldpgraph.LdpgraphException;
import org.ldpgraph.PrivacyLoss;
import org.ldpgraph.RandomSource;
import org.ldpgraph.Uploader;
import org.ldpgraph.UserData;

/**
 * A phone, as an app would be written with the ldpgraph Java library: it
 * fetches its graph's configuration from the daemon, builds its user's report
 * from her friend list, features and label, keeps it in a budget ledger in
 * the app's storage and uploads it; later it asks the daemon what the model
 * says about her. Each line of DEVICES is one phone:
 *   user token friend,friend,... feature,feature,... label
 * ("-" for no features or no label), each with its own storage folder.
 *
 *   java -cp ldpgraph.jar:. -Djava.library.path=DIR JavaClient report HOST PORT CA GRAPH DEVICES STORAGE
 *   java ... JavaClient result HOST PORT CA GRAPH DEVICES STORAGE
 */
public final class JavaClient {
  private record Phone(int user, String token, int[] friends, double[] features, int label) {}

  public static void main(String[] args) throws Exception {
    if (args.length != 7 || !(args[0].equals("report") || args[0].equals("result"))) {
      System.err.println("usage: JavaClient report|result HOST PORT CA GRAPH DEVICES STORAGE");
      System.exit(2);
    }
    Uploader.Options options = new Uploader.Options(args[1], Integer.parseInt(args[2])).pinnedCa(Path.of(args[3]));
    long graphId = Long.parseLong(args[4]);
    List<Phone> phones = read(Path.of(args[5]));
    Path storage = Path.of(args[6]);
    try (Uploader uploader = Uploader.create(options)) {
      if (args[0].equals("report")) {
        report(uploader, graphId, phones, storage);
      } else {
        results(uploader, graphId, phones);
      }
    }
  }

  // Every phone: the configuration, the report made once and kept (or, for
  // a graph collected in rounds, the open round's memoised report), the upload.
  private static void report(Uploader uploader, long graphId, List<Phone> phones, Path storage) throws Exception {
    int delivered = 0;
    double loss = 0, naive = 0;  // summed over the phones, to show the mean
    long round = uploader.fetchOpenRound(graphId);
    try (Graph graph = uploader.fetchGraph(graphId); RandomSource rng = RandomSource.os()) {
      for (Phone p : phones) {
        Path app = storage.resolve("phone-" + p.user());
        Files.createDirectories(app);
        UserData user = UserData.of(p.user(), p.friends());
        if (p.features() != null) user = user.withFeatures(p.features());
        if (p.label() >= 0) user = user.withLabel(p.label());
        try (BudgetLedger ledger = BudgetLedger.openFile(app.resolve("privacy.ledger"), 10)) {
          byte[] report = round == 0 ? ledger.report(graph, rng, user) : ledger.reportRound(graph, rng, user, round);
          if (uploader.send(p.token(), report) == 200) delivered++;
          PrivacyLoss spent = ledger.loss(graphId);  // what the app shows its user
          loss += spent.epsilon;
          naive += spent.naiveEpsilon;
        }
      }
    }
    System.out.println("round=" + round);
    System.out.println("phones=" + phones.size());
    System.out.println("delivered=" + delivered);
    System.out.println("loss_mean=" + loss / phones.size());
    System.out.println("naive_mean=" + naive / phones.size());
  }

  // Every phone asks for her own result, waiting while no model covers the graph.
  private static void results(Uploader uploader, long graphId, List<Phone> phones) throws Exception {
    for (Phone p : phones) {
      DeviceResult r = null;
      for (int attempt = 0; r == null; attempt++) {
        try {
          r = uploader.fetchResult(graphId, p.token());
        } catch (LdpgraphException e) {
          if (attempt == 600 || !e.getMessage().contains("no model covers")) throw e;
          Thread.sleep(100);
        }
      }
      System.out.println("user=" + r.userId() + " class=" + r.classLabel() + " model=" + r.modelVersion()
                         + " p0=" + r.probabilities()[0]);
    }
  }

  private static List<Phone> read(Path file) throws Exception {
    List<Phone> phones = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] f = line.trim().split(" ");
      if (f.length != 5) continue;
      int[] friends = f[2].equals("-") ? new int[0]
                                       : java.util.Arrays.stream(f[2].split(",")).mapToInt(Integer::parseInt).toArray();
      double[] features = f[3].equals("-") ? null
                                           : java.util.Arrays.stream(f[3].split(",")).mapToDouble(Double::parseDouble)
                                                 .toArray();
      phones.add(new Phone(Integer.parseInt(f[0]), f[1], friends, features, f[4].equals("-") ? -1 : Integer.parseInt(f[4])));
    }
    return phones;
  }
}
