#include "store/sqlite_db.h"

#include <sqlite3.h>

namespace ldpgraph {
namespace sqlite {

Result<Db> Db::Open(const std::string& path) {
  Db db;
  const int rc = sqlite3_open_v2(path.c_str(), &db.db_,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    return Status::Unavailable("cannot open store " + path + ": " +
                               (db.db_ ? sqlite3_errmsg(db.db_) : sqlite3_errstr(rc)));
  }
  sqlite3_extended_result_codes(db.db_, 1);
  // A reader may briefly meet a checkpoint; wait rather than fail.
  sqlite3_busy_timeout(db.db_, 5000);
  return db;
}

Db& Db::operator=(Db&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = other.db_;
    other.db_ = nullptr;
  }
  return *this;
}

Db::~Db() {
  if (db_) sqlite3_close_v2(db_);
}

Status Db::Exec(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return Status::Unavailable("store: " + text);
  }
  return Status::Ok();
}

int Db::Changes() const { return sqlite3_changes(db_); }

std::int64_t Db::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_); }

Status Db::Error(const std::string& what) const {
  return Status::Unavailable(what + ": " + sqlite3_errmsg(db_));
}

Result<Statement> Statement::Prepare(const Db& db, const char* sql) {
  Statement s;
  if (sqlite3_prepare_v2(db.get(), sql, -1, &s.stmt_, nullptr) != SQLITE_OK) {
    return db.Error(std::string("store: cannot prepare '") + sql + "'");
  }
  return s;
}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (stmt_) sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    other.stmt_ = nullptr;
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

void Statement::BindInt(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }

void Statement::BindBlob(int index, const void* data, std::size_t size) {
  sqlite3_bind_blob64(stmt_, index, data, size, SQLITE_TRANSIENT);
}

void Statement::BindText(int index, const std::string& text) {
  sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

Result<bool> Statement::Step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Status::Unavailable(std::string("store: ") + sqlite3_errmsg(sqlite3_db_handle(stmt_)));
}

void Statement::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::ColumnInt(int column) const { return sqlite3_column_int64(stmt_, column); }

const std::uint8_t* Statement::ColumnBlob(int column) const {
  return static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
}

std::size_t Statement::ColumnBytes(int column) const {
  return static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column));
}

std::string Statement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), ColumnBytes(column)) : std::string();
}

}  // namespace sqlite
}  // namespace ldpgraph
