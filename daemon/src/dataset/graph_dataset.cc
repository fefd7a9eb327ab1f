#include "dataset/graph_dataset.h"

#include <algorithm>
#include <dirent.h>
#include <map>
#include <sys/stat.h>

namespace ldpgraph {

Status WriteS2v(const GraphDataset& ds, const std::string& path);
Status WriteTu(const GraphDataset& ds, const std::string& folder);
Status WriteCsv(const GraphDataset& ds, const std::string& folder);

const char* DatasetFormatName(DatasetFormat format) {
  switch (format) {
    case DatasetFormat::kS2v: return "s2v";
    case DatasetFormat::kTu: return "tu";
    case DatasetFormat::kCsv: return "csv";
  }
  return "unknown";
}

std::uint64_t GraphDataset::num_nodes() const {
  std::uint64_t n = 0;
  for (const auto& g : graphs) n += g.num_nodes();
  return n;
}

std::uint64_t GraphDataset::num_entries() const {
  std::uint64_t e = 0;
  for (const auto& g : graphs) e += g.num_entries();
  return e;
}

std::uint32_t GraphDataset::max_nodes() const {
  std::uint32_t m = 0;
  for (const auto& g : graphs) m = std::max(m, g.num_nodes());
  return m;
}

void MapLabels(GraphDataset* ds) {
  std::map<std::int64_t, std::uint32_t> index;
  for (auto l : ds->raw_labels) index.emplace(l, 0);
  std::uint32_t next = 0;
  for (auto& kv : index) kv.second = next++;
  ds->labels.clear();
  for (auto l : ds->raw_labels) ds->labels.push_back(index[l]);
  ds->num_classes = next;
}

Result<DatasetFormat> DetectDatasetFormat(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return Status::InvalidArgument(path + ": no such file or folder");
  if (S_ISDIR(st.st_mode)) {
    if (::stat((path + "/edges.csv").c_str(), &st) == 0) return DatasetFormat::kCsv;
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) return Status::Unavailable("cannot open folder " + path);
    bool tu = false;
    while (dirent* e = ::readdir(dir)) {
      const std::string f = e->d_name;
      tu |= f.size() > 6 && f.compare(f.size() - 6, 6, "_A.txt") == 0;
    }
    ::closedir(dir);
    if (tu) return DatasetFormat::kTu;
    return Status::InvalidArgument(path + ": a folder without edges.csv or NAME_A.txt is no dataset");
  }
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0) return DatasetFormat::kCsv;
  return DatasetFormat::kS2v;
}

Result<GraphDataset> ReadDataset(const std::string& path) {
  Result<DatasetFormat> format = DetectDatasetFormat(path);
  if (!format.ok()) return format.status();
  switch (*format) {
    case DatasetFormat::kS2v: return ReadS2v(path);
    case DatasetFormat::kTu: return ReadTu(path);
    case DatasetFormat::kCsv: return ReadCsv(path);
  }
  return Status::Internal("unknown dataset format");
}

Status WriteDataset(const GraphDataset& ds, const std::string& path) {
  switch (ds.format) {
    case DatasetFormat::kS2v: return WriteS2v(ds, path);
    case DatasetFormat::kTu: return WriteTu(ds, path);
    case DatasetFormat::kCsv: return WriteCsv(ds, path);
  }
  return Status::Internal("unknown dataset format");
}

}  // namespace ldpgraph
