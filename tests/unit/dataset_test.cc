#include "dataset/graph_dataset.h"

#include <doctest/doctest.h>

#include "support/temp_dir.h"

using namespace ldpgraph;
using ldpgraph::testing::TempDir;

namespace {
void CheckErrorAt(const Result<GraphDataset>& r, const std::string& where) {
  INFO("expected an error at " << where);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(r.status().message().find(where) != std::string::npos, r.status().message());
}
}  // namespace

TEST_CASE("S2v.ReadsGraphsLabelsAndRows") {
  TempDir dir;
  const auto path = dir.Write("tiny.txt", "2\n3 5\n0 2 1 2\n0 1 0\n0 1 0\n2 -1\n0 1 1\n0 1 0\n");
  auto ds = ReadS2v(path);
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->graphs.size() == 2u);
  CHECK(ds->graphs[0].num_nodes() == 3u);
  CHECK(ds->graphs[0].num_entries() == 4u);
  CHECK(ds->raw_labels == std::vector<std::int64_t>{5, -1});
  CHECK(ds->labels == std::vector<std::uint32_t>{1, 0});
  CHECK(ds->num_classes == 2u);
  CHECK(ds->name == "tiny");
}

TEST_CASE("S2v.ErrorsNameFileAndLine") {
  TempDir dir;
  CheckErrorAt(ReadS2v(dir.Write("a.txt", "x\n")), "a.txt:1:");
  CheckErrorAt(ReadS2v(dir.Write("b.txt", "1\n2 0\n0 1 1\n0 1 5\n")), "b.txt:4: neighbour 5 outside");
  CheckErrorAt(ReadS2v(dir.Write("c.txt", "1\n2 0\n0 2 1\n")), "c.txt:3: expected 2 neighbours, found 1");
  CheckErrorAt(ReadS2v(dir.Write("d.txt", "2\n1 0\n0 0\n")), "d.txt:3: file ends before graph 1");
  CheckErrorAt(ReadS2v(dir.Write("e.txt", "1\n1 0\n0 0 7\n")), "e.txt:3: more than");
  CheckErrorAt(ReadS2v(dir.Write("f.txt", "1\n2 0\n0 -1\n")), "f.txt:3:");
}

TEST_CASE("S2v.MissingFileIsUnavailable") {
  CHECK(ReadS2v("/nonexistent/file.txt").status().code() == StatusCode::kUnavailable);
}

TEST_CASE("Tu.ReadsAFolder") {
  TempDir dir;
  dir.Write("T_A.txt", "1, 2\n2, 1\n3, 4\n4, 3\n4, 5\n5, 4\n");
  dir.Write("T_graph_indicator.txt", "1\n1\n2\n2\n2\n");
  dir.Write("T_graph_labels.txt", "1\n-1\n");
  auto ds = ReadDataset(dir.path());
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->format == DatasetFormat::kTu);
  CHECK(ds->graphs.size() == 2u);
  CHECK(ds->graphs[1].num_nodes() == 3u);
  CHECK(ds->graphs[1].degree(1) == 2u);
  CHECK(ds->labels == std::vector<std::uint32_t>{1, 0});
}

TEST_CASE("Tu.ErrorsNameFileAndLine") {
  TempDir dir;
  dir.Write("T_A.txt", "1, 2\n2, 3\n");
  dir.Write("T_graph_indicator.txt", "1\n1\n2\n");
  dir.Write("T_graph_labels.txt", "0\n1\n");
  CheckErrorAt(ReadTu(dir.path()), "T_A.txt:2: edge joins two different graphs");
  dir.Write("T_A.txt", "1, 2\n1 2\n");
  CheckErrorAt(ReadTu(dir.path()), "T_A.txt:2: expected 'u, v'");
  dir.Write("T_A.txt", "1, 9\n");
  CheckErrorAt(ReadTu(dir.path()), "T_A.txt:1: node id outside");
  dir.Write("T_A.txt", "1, 2\n");
  dir.Write("T_graph_indicator.txt", "1\n0\n");
  CheckErrorAt(ReadTu(dir.path()), "T_graph_indicator.txt:2:");
}

TEST_CASE("Csv.ReadsUndirectedEdgesAndLabels") {
  TempDir dir;
  dir.Write("edges.csv", "source,target\n0,1\n1,2\n");
  dir.Write("labels.csv", "node,label\n0,3\n1,4\n3,3\n");
  auto ds = ReadDataset(dir.path());
  REQUIRE_MESSAGE(ds.ok(), ds.status().ToString());
  CHECK(ds->format == DatasetFormat::kCsv);
  CHECK(ds->graphs[0].num_nodes() == 4u);  // node 3 has a label but no edge
  CHECK(ds->graphs[0].num_entries() == 4u);
  CHECK(ds->node_labels == std::vector<std::int64_t>{3, 4, -1, 3});
}

TEST_CASE("Csv.FeaturesAreReadAsSparseRows") {
  TempDir dir;
  dir.Write("edges.csv", "source,target\n0,1\n1,2\n");
  // Any order; explicit zeros are not stored; binary features store no weights.
  dir.Write("features.csv", "node,feature,value\n2,0,1\n0,3,1\n0,1,1\n1,2,0\n");
  auto binary = ReadDataset(dir.path());
  REQUIRE_MESSAGE(binary.ok(), binary.status().ToString());
  const SparseMatrix& x = binary->node_features;
  CHECK(binary->feature_dims == 4u);
  CHECK(x.rows == 3);
  CHECK(x.cols == 4);
  CHECK(x.offsets == std::vector<std::int64_t>{0, 2, 2, 3});
  CHECK(x.indices == std::vector<std::int32_t>{1, 3, 0});
  CHECK(x.unit_weights());

  dir.Write("features.csv", "node,feature,value\n1,2,0.5\n0,0,-2\n");
  auto weighted = ReadDataset(dir.path());
  REQUIRE(weighted.ok());
  CHECK(weighted->node_features.values == std::vector<float>{-2.0f, 0.5f});

  dir.Write("features.csv", "node,feature,value\n0,1,1\n2,0,1\n0,1,0.5\n");
  CheckErrorAt(ReadDataset(dir.path()), "features.csv:4: feature 1 of node 0 listed twice (first on line 2)");
  dir.Write("features.csv", "node,feature,value\n3,0,1\n");
  CheckErrorAt(ReadDataset(dir.path()), "features.csv:2: node id outside the graph");
  dir.Write("features.csv", "node,feature,value\n0,0,nan\n");
  CheckErrorAt(ReadDataset(dir.path()), "features.csv:2: feature value 'nan' is not a finite number");
}

TEST_CASE("Csv.WritesLabelsAndFeaturesBack") {
  TempDir dir;
  dir.Write("edges.csv", "source,target\n0,1\n1,2\n2,3\n");
  dir.Write("labels.csv", "node,label\n0,1\n2,0\n");
  dir.Write("features.csv", "node,feature,value\n0,2,0.25\n3,1,-1.5\n3,4,3\n");
  auto ds = ReadDataset(dir.path());
  REQUIRE(ds.ok());
  REQUIRE(WriteDataset(*ds, dir.path() + "/copy").ok());
  auto back = ReadDataset(dir.path() + "/copy");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->node_labels == ds->node_labels);
  CHECK(back->feature_dims == ds->feature_dims);
  CHECK(back->node_features.offsets == ds->node_features.offsets);
  CHECK(back->node_features.indices == ds->node_features.indices);
  CHECK(back->node_features.values == ds->node_features.values);  // %.9g: floats exactly
}

TEST_CASE("Csv.ErrorsNameFileAndLine") {
  TempDir dir;
  CheckErrorAt(ReadCsv(dir.Write("a.csv", "from,to\n0,1\n")), "a.csv:1: expected the header");
  CheckErrorAt(ReadCsv(dir.Write("b.csv", "source,target\n0,1\n2;3\n")), "b.csv:3:");
  CheckErrorAt(ReadCsv(dir.Write("c.csv", "source,target\n0,-4\n")), "c.csv:2: node id out of range");
}

TEST_CASE("Datasets.WriteThenReadRoundTripsEveryFormat") {
  TempDir dir;
  dir.Write("T_A.txt", "1, 2\n2, 1\n2, 3\n4, 5\n5, 4\n");  // 2->3 without 3->2: directed rows
  dir.Write("T_graph_indicator.txt", "1\n1\n1\n2\n2\n");
  dir.Write("T_graph_labels.txt", "0\n1\n");
  auto tu = ReadTu(dir.path());
  REQUIRE(tu.ok());
  for (auto format : {DatasetFormat::kS2v, DatasetFormat::kTu}) {
    GraphDataset ds = *tu;
    ds.format = format;
    const std::string out = dir.path() + "/out_" + DatasetFormatName(format);
    REQUIRE(WriteDataset(ds, out).ok());
    auto back = ReadDataset(out);
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    REQUIRE(back->graphs.size() == ds.graphs.size());
    for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
      CHECK(back->graphs[g].offsets() == ds.graphs[g].offsets());
      CHECK(back->graphs[g].targets() == ds.graphs[g].targets());
    }
    CHECK(back->raw_labels == ds.raw_labels);
  }
  GraphDataset csv = *tu;
  csv.format = DatasetFormat::kCsv;
  csv.graphs.resize(1);
  REQUIRE(WriteDataset(csv, dir.path() + "/out_csv").ok());
  auto back = ReadDataset(dir.path() + "/out_csv");
  REQUIRE(back.ok());
  CHECK(back->graphs[0].targets() == csv.graphs[0].targets());  // directed rows survive
}

TEST_CASE("Datasets.DetectFormat") {
  TempDir dir;
  CHECK(*DetectDatasetFormat(dir.Write("x.csv", "source,target\n")) == DatasetFormat::kCsv);
  CHECK(*DetectDatasetFormat(dir.Write("x.txt", "0\n")) == DatasetFormat::kS2v);
  CHECK(DetectDatasetFormat(dir.path()).status().code() == StatusCode::kInvalidArgument);
  CHECK(DetectDatasetFormat("/nonexistent").status().code() == StatusCode::kInvalidArgument);
}
