// Thin RAII owners for sqlite3 handles with Status errors: what the SQLite
// store needs and no more.
#ifndef LDPGRAPH_DAEMON_STORE_SQLITE_DB_H_
#define LDPGRAPH_DAEMON_STORE_SQLITE_DB_H_

#include <cstdint>
#include <string>

#include "ldpgraph/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ldpgraph {
namespace sqlite {

class Db {
 public:
  // Opens (creating) `path` for reading and writing.
  static Result<Db> Open(const std::string& path);
  Db() = default;
  Db(Db&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Db& operator=(Db&& other) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  // Runs one or more statements that return no rows.
  Status Exec(const std::string& sql);
  sqlite3* get() const { return db_; }
  // Rows changed by the last INSERT, UPDATE or DELETE.
  int Changes() const;
  // The rowid of the last row INSERTed on this connection.
  std::int64_t LastInsertRowId() const;
  // The connection's last error, prefixed by `what`.
  Status Error(const std::string& what) const;

 private:
  sqlite3* db_ = nullptr;
};

class Statement {
 public:
  static Result<Statement> Prepare(const Db& db, const char* sql);
  Statement() = default;
  Statement(Statement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Bind indices start at 1, as in SQLite. Blobs are copied.
  void BindInt(int index, std::int64_t value);
  void BindBlob(int index, const void* data, std::size_t size);
  void BindText(int index, const std::string& text);
  // true: a row is ready; false: done. Errors: kUnavailable with SQLite's message.
  Result<bool> Step();
  // Makes the statement ready to bind and run again.
  void Reset();

  std::int64_t ColumnInt(int column) const;
  const std::uint8_t* ColumnBlob(int column) const;
  std::size_t ColumnBytes(int column) const;
  std::string ColumnText(int column) const;

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace sqlite
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_SQLITE_DB_H_
