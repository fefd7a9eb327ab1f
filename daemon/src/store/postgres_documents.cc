#include "store/postgres_documents.h"

#include "store/pg_pool.h"
#include "util/unix_clock.h"

namespace ldpgraph {
namespace {

class PostgresDocuments final : public DocumentStore {
 public:
  PostgresDocuments(std::unique_ptr<pg::Pool> pool, std::string kind, std::string what)
      : pool_(std::move(pool)), kind_(std::move(kind)), what_(std::move(what)) {}

  Result<std::uint64_t> AddNext(const std::vector<std::uint8_t>& data, const std::string& summary) override {
    std::uint64_t id = 0;
    Status s = pool_->Run([&](pg::Connection& c) -> Status {
      LDPGRAPH_RETURN_IF_ERROR(c.Exec("BEGIN"));
      Status body = [&]() -> Status {
        Result<pg::QueryResult> next = c.Query(
            "INSERT INTO document_numbers (kind, last) VALUES ($1, 1) "
            "ON CONFLICT (kind) DO UPDATE SET last = document_numbers.last + 1 RETURNING last",
            pg::Params().Text(kind_));
        if (!next.ok()) return next.status();
        id = static_cast<std::uint64_t>(next->Int8(0, 0));
        return Insert(c, id, data, summary);
      }();
      if (body.ok()) body = c.Exec("COMMIT");
      if (!body.ok()) (void)c.Exec("ROLLBACK");
      return body;
    });
    if (!s.ok()) return s;
    return id;
  }

  Status AddAt(std::uint64_t id, const std::vector<std::uint8_t>& data, const std::string& summary) override {
    Status s = pool_->Run([&](pg::Connection& c) { return Insert(c, id, data, summary); });
    if (s.code() == StatusCode::kFailedPrecondition) {
      return Status::FailedPrecondition(what_ + " " + std::to_string(id) + " exists");
    }
    return s;
  }

  Result<std::vector<std::uint8_t>> Data(std::uint64_t id) const override {
    std::vector<std::uint8_t> data;
    Status s = pool_->Read([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query("SELECT data FROM documents WHERE kind = $1 AND id = $2",
                                          pg::Params().Text(kind_).Int8(static_cast<std::int64_t>(id)));
      if (!r.ok()) return r.status();
      if (r->rows() == 0) return Unknown(id);
      data.assign(r->Bytes(0, 0), r->Bytes(0, 0) + r->Length(0, 0));
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return data;
  }

  Result<std::map<std::uint64_t, std::string>> List() const override {
    std::map<std::uint64_t, std::string> all;
    Status s = pool_->Read([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query("SELECT id, summary FROM documents WHERE kind = $1 ORDER BY id",
                                          pg::Params().Text(kind_));
      if (!r.ok()) return r.status();
      for (int i = 0; i < r->rows(); ++i) all[static_cast<std::uint64_t>(r->Int8(i, 0))] = r->Text(i, 1);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return all;
  }

  Result<std::string> Summary(std::uint64_t id) const override {
    std::string summary;
    Status s = pool_->Read([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query("SELECT summary FROM documents WHERE kind = $1 AND id = $2",
                                          pg::Params().Text(kind_).Int8(static_cast<std::int64_t>(id)));
      if (!r.ok()) return r.status();
      if (r->rows() == 0) return Unknown(id);
      summary = r->Text(0, 0);
      return Status::Ok();
    });
    if (!s.ok()) return s;
    return summary;
  }

  Status SetSummary(std::uint64_t id, const std::string& summary) override {
    return pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query("UPDATE documents SET summary = $3 WHERE kind = $1 AND id = $2",
                                          pg::Params().Text(kind_).Int8(static_cast<std::int64_t>(id)).Text(summary));
      if (!r.ok()) return r.status();
      return r->Affected() == 0 ? Unknown(id) : Status::Ok();
    });
  }

  Status Remove(std::uint64_t id) override {
    return pool_->Run([&](pg::Connection& c) -> Status {
      Result<pg::QueryResult> r = c.Query("DELETE FROM documents WHERE kind = $1 AND id = $2",
                                          pg::Params().Text(kind_).Int8(static_cast<std::int64_t>(id)));
      if (!r.ok()) return r.status();
      return r->Affected() == 0 ? Unknown(id) : Status::Ok();
    });
  }

 private:
  Status Unknown(std::uint64_t id) const {
    return Status::FailedPrecondition("no " + what_ + " " + std::to_string(id));
  }

  Status Insert(pg::Connection& c, std::uint64_t id, const std::vector<std::uint8_t>& data,
                const std::string& summary) const {
    Result<pg::QueryResult> r = c.Query(
        "INSERT INTO documents (kind, id, data, summary, created_unix) VALUES ($1, $2, $3, $4, $5)",
        pg::Params().Text(kind_).Int8(static_cast<std::int64_t>(id)).Bytes(data.data(), data.size()).Text(summary).Int8(
            UnixSeconds()));
    return r.status();
  }

  std::unique_ptr<pg::Pool> pool_;
  const std::string kind_, what_;
};

}  // namespace

Result<std::unique_ptr<DocumentStore>> OpenPostgresDocuments(const std::string& conninfo, const std::string& password,
                                                             const std::string& kind, const std::string& what,
                                                             std::size_t pool_size) {
  Result<std::unique_ptr<pg::Pool>> pool = pg::Pool::Open(conninfo, password, pool_size);
  if (!pool.ok()) return pool.status();
  return std::unique_ptr<DocumentStore>(std::make_unique<PostgresDocuments>(std::move(pool).value(), kind, what));
}

}  // namespace ldpgraph
