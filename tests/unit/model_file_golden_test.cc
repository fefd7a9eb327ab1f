// Model files are a stored format: files written by an earlier build load,
// and saving what was loaded gives back the same bytes, for every kind.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "store/model_file.h"
#include "support/temp_dir.h"

namespace {

std::vector<char> Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("ModelFile.GoldenFilesLoadAndSaveByteForByte") {
  ldpgraph::testing::TempDir dir;
  const struct {
    const char* file;
    ldpgraph::ModelKind kind;
  } golden[] = {{"gin.model", ldpgraph::ModelKind::kGin},
                {"gcn.model", ldpgraph::ModelKind::kGcn},
                {"sage.model", ldpgraph::ModelKind::kSage},
                {"gap.model", ldpgraph::ModelKind::kGap}};
  for (const auto& g : golden) {
    INFO(g.file);
    const std::string path = std::string(LDPGRAPH_GOLDEN_DIR) + "/" + g.file;
    ldpgraph::Result<ldpgraph::AnyModel> loaded = ldpgraph::LoadModel(path);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
    CHECK(loaded->kind == g.kind);
    CHECK(ldpgraph::ModelIsFinite(*loaded));
    const std::string again = dir.path() + "/" + g.file;
    REQUIRE(ldpgraph::SaveModel(*loaded, again).ok());
    CHECK(Bytes(again) == Bytes(path));
  }
}
