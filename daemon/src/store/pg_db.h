// Thin RAII owners for libpq handles with Status errors: what the PostgreSQL
// store needs and no more. Parameters go as binary (integers in network
// order, byte strings as they are) or text; results come back in the format
// the query asked for.
#ifndef LDPGRAPH_DAEMON_STORE_PG_DB_H_
#define LDPGRAPH_DAEMON_STORE_PG_DB_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ldpgraph/status.h"

struct pg_conn;
struct pg_result;

namespace ldpgraph {
namespace pg {

// One query's parameters, in order ($1, $2, ...).
class Params {
 public:
  Params& Int8(std::int64_t value);
  Params& Int4(std::int32_t value);
  Params& Bytes(const void* data, std::size_t size);
  Params& Text(const std::string& text);
  // A one-dimensional array of int8 or bytea in PostgreSQL's binary
  // array format: one round trip carries a whole batch (unnest($n)).
  Params& Int8Array(const std::vector<std::int64_t>& values);
  Params& ByteaArray(const std::vector<const std::vector<std::uint8_t>*>& values);

  int size() const { return static_cast<int>(values_.size()); }
  const char* const* values() const { return pointers_.data(); }
  const int* lengths() const { return lengths_.data(); }
  const int* formats() const { return formats_.data(); }
  const unsigned* types() const { return types_.data(); }

 private:
  Params& Add(std::string bytes, unsigned type, int format);
  std::vector<std::string> values_;
  std::vector<const char*> pointers_;
  std::vector<int> lengths_, formats_;
  std::vector<unsigned> types_;
};

// A query's result (rows, or nothing for a command).
class QueryResult {
 public:
  QueryResult() = default;
  explicit QueryResult(pg_result* r) : r_(r) {}
  QueryResult(QueryResult&& o) noexcept : r_(o.r_) { o.r_ = nullptr; }
  QueryResult& operator=(QueryResult&& o) noexcept;
  QueryResult(const QueryResult&) = delete;
  QueryResult& operator=(const QueryResult&) = delete;
  ~QueryResult();

  int rows() const;
  // Binary results: an int8 / int4 column, or a bytea column's bytes.
  std::int64_t Int8(int row, int column) const;
  std::int32_t Int4(int row, int column) const;
  const std::uint8_t* Bytes(int row, int column) const;
  std::size_t Length(int row, int column) const;
  // Text results.
  std::string Text(int row, int column) const;
  // Rows changed by an INSERT, UPDATE or DELETE.
  std::uint64_t Affected() const;

 private:
  pg_result* r_ = nullptr;
};

enum class Format { kText = 0, kBinary = 1 };

// Reads a connection string as libpq will (key=value pairs or a
// postgresql:// URI) and refuses one that holds a password in any form
// (password=..., user:password@ in a URI, ?password= in its query): a
// password belongs in a file or the environment, never in a config that
// gets copied and logged. Errors: kInvalidArgument, naming what is wrong
// (never quoting the string, which may hold the password).
Status CheckConninfo(const std::string& conninfo);

class Connection {
 public:
  // `conninfo`: a libpq connection string ("host=... port=... dbname=...");
  // `password`: sent if the server asks (empty: none, or libpq's own
  // sources such as PGPASSFILE). Errors: kUnavailable with the server's
  // message (never the password). `settings`: libpq keywords that override
  // the connection string's (e.g. keepalives for a connection that must
  // notice a silent server).
  static Result<Connection> Open(const std::string& conninfo, const std::string& password,
                                 const std::vector<std::pair<std::string, std::string>>& settings = {});
  Connection() = default;
  Connection(Connection&& o) noexcept : c_(o.c_), may_have_committed_(o.may_have_committed_) { o.c_ = nullptr; }
  Connection& operator=(Connection&& o) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs `sql` (one or more statements, no parameters) and discards rows.
  Status Exec(const std::string& sql);
  // One statement with parameters; rows in `format`. Errors, each with the
  // server's message: kUnavailable for a lost connection, I/O, or a
  // serialization failure or deadlock (SQLSTATE class 40: the transaction
  // may be retried), kFailedPrecondition for a constraint the statement
  // broke (class 23), kInternal for anything else.
  Result<QueryResult> Query(const std::string& sql, const Params& params, Format format = Format::kBinary);
  // Whether the connection still works (a lost one must be replaced).
  // libpq learns of a server that went away only when it next reads, so
  // ok() stays true on a connection the server closed while it sat idle.
  bool ok() const;
  // ok(), and the server has not closed it meanwhile: what an idle
  // connection has been sent (a restarting server's farewell, the end of
  // the stream) is read without waiting. For a connection about to be used.
  bool Alive();
  // Whether a statement sent since the last ForgetCommits() may have
  // committed: one outside a transaction block (but BEGIN and ROLLBACK),
  // or a COMMIT. When it is false and the connection broke, nothing the
  // work sent took effect and the work may run again elsewhere.
  bool MayHaveCommitted() const { return may_have_committed_; }
  void ForgetCommits() { may_have_committed_ = false; }
  pg_conn* get() const { return c_; }

 private:
  void NoteSending(const std::string& sql);
  pg_conn* c_ = nullptr;
  bool may_have_committed_ = false;
};

}  // namespace pg
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_PG_DB_H_
