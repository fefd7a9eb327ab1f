#include "store/pg_db.h"

#include <libpq-fe.h>

#include <poll.h>

#include <cstring>

namespace ldpgraph {
namespace pg {
namespace {

// PostgreSQL's type oids (pg_type.dat): fixed since the first release.
constexpr unsigned kInt8 = 20, kInt4 = 23, kText = 25, kBytea = 17;
constexpr unsigned kInt8Array = 1016, kByteaArray = 1001;

void PutBigEndian(std::string* out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t GetBigEndian(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// The binary array header: one dimension, no nulls, of `count` elements.
std::string ArrayHeader(unsigned element_type, std::size_t count) {
  std::string out;
  PutBigEndian(&out, 1, 4);  // dimensions
  PutBigEndian(&out, 0, 4);  // no null bitmap
  PutBigEndian(&out, element_type, 4);
  PutBigEndian(&out, count, 4);
  PutBigEndian(&out, 1, 4);  // lower bound
  return out;
}

std::string Message(const char* what, const char* detail) {
  std::string m = detail != nullptr ? detail : "";
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return std::string(what) + ": " + m;
}

}  // namespace

Status CheckConninfo(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    // Not libpq's message: it quotes the offending word, which may be a password.
    if (error != nullptr) PQfreemem(error);
    return Status::InvalidArgument("is not a libpq connection string (key=value pairs, or a postgresql:// URI)");
  }
  bool password = false;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (std::strcmp(o->keyword, "password") == 0 && o->val != nullptr && o->val[0] != '\0') password = true;
  }
  PQconninfoFree(options);
  if (password) return Status::InvalidArgument("must not hold the password: use password_file or LDPGRAPH_STORE_PASSWORD");
  return Status::Ok();
}

Params& Params::Add(std::string bytes, unsigned type, int format) {
  values_.push_back(std::move(bytes));
  types_.push_back(type);
  formats_.push_back(format);
  // Pointers into the strings are taken again after each add: a vector of
  // strings may move them (small strings live inside the string object).
  pointers_.clear();
  lengths_.clear();
  for (const std::string& v : values_) {
    pointers_.push_back(v.data());
    lengths_.push_back(static_cast<int>(v.size()));
  }
  return *this;
}

Params& Params::Int8(std::int64_t value) {
  std::string b;
  PutBigEndian(&b, static_cast<std::uint64_t>(value), 8);
  return Add(std::move(b), kInt8, 1);
}

Params& Params::Int4(std::int32_t value) {
  std::string b;
  PutBigEndian(&b, static_cast<std::uint32_t>(value), 4);
  return Add(std::move(b), kInt4, 1);
}

Params& Params::Bytes(const void* data, std::size_t size) {
  return Add(std::string(static_cast<const char*>(data), size), kBytea, 1);
}

Params& Params::Text(const std::string& text) { return Add(text, kText, 0); }

Params& Params::Int8Array(const std::vector<std::int64_t>& values) {
  std::string b = ArrayHeader(kInt8, values.size());
  b.reserve(b.size() + values.size() * 12);
  for (std::int64_t v : values) {
    PutBigEndian(&b, 8, 4);
    PutBigEndian(&b, static_cast<std::uint64_t>(v), 8);
  }
  return Add(std::move(b), kInt8Array, 1);
}

Params& Params::ByteaArray(const std::vector<const std::vector<std::uint8_t>*>& values) {
  std::string b = ArrayHeader(kBytea, values.size());
  std::size_t total = b.size();
  for (const auto* v : values) total += 4 + v->size();
  b.reserve(total);
  for (const auto* v : values) {
    PutBigEndian(&b, v->size(), 4);
    b.append(reinterpret_cast<const char*>(v->data()), v->size());
  }
  return Add(std::move(b), kByteaArray, 1);
}

QueryResult& QueryResult::operator=(QueryResult&& o) noexcept {
  if (this != &o) {
    if (r_ != nullptr) PQclear(r_);
    r_ = o.r_;
    o.r_ = nullptr;
  }
  return *this;
}

QueryResult::~QueryResult() {
  if (r_ != nullptr) PQclear(r_);
}

int QueryResult::rows() const { return r_ != nullptr ? PQntuples(r_) : 0; }

std::int64_t QueryResult::Int8(int row, int column) const {
  return static_cast<std::int64_t>(GetBigEndian(PQgetvalue(r_, row, column), 8));
}

std::int32_t QueryResult::Int4(int row, int column) const {
  return static_cast<std::int32_t>(GetBigEndian(PQgetvalue(r_, row, column), 4));
}

const std::uint8_t* QueryResult::Bytes(int row, int column) const {
  return reinterpret_cast<const std::uint8_t*>(PQgetvalue(r_, row, column));
}

std::size_t QueryResult::Length(int row, int column) const {
  return static_cast<std::size_t>(PQgetlength(r_, row, column));
}

std::string QueryResult::Text(int row, int column) const {
  return std::string(PQgetvalue(r_, row, column), Length(row, column));
}

std::uint64_t QueryResult::Affected() const {
  const char* n = PQcmdTuples(r_);
  return n != nullptr && *n != '\0' ? std::strtoull(n, nullptr, 10) : 0;
}

Result<Connection> Connection::Open(const std::string& conninfo, const std::string& password,
                                    const std::vector<std::pair<std::string, std::string>>& settings) {
  // The password goes as its own keyword, never into a string that could be
  // logged; dbname carries the connection string (libpq expands it, and
  // the keywords after it override what it says).
  std::vector<const char*> keys = {"dbname"}, values = {conninfo.c_str()};
  if (!password.empty()) {
    keys.push_back("password");
    values.push_back(password.c_str());
  }
  for (const auto& [key, value] : settings) {
    keys.push_back(key.c_str());
    values.push_back(value.c_str());
  }
  keys.push_back(nullptr);
  values.push_back(nullptr);
  Connection c;
  c.c_ = PQconnectdbParams(keys.data(), values.data(), /*expand_dbname=*/1);
  if (c.c_ == nullptr) return Status::Unavailable("postgresql: out of memory opening a connection");
  if (PQstatus(c.c_) != CONNECTION_OK) return Status::Unavailable(Message("postgresql", PQerrorMessage(c.c_)));
  // Notices ("relation already exists, skipping") are not errors: libpq
  // would print them on stderr, among the daemon's JSON log lines.
  PQsetNoticeProcessor(c.c_, [](void*, const char*) {}, nullptr);
  return c;
}

Connection& Connection::operator=(Connection&& o) noexcept {
  if (this != &o) {
    if (c_ != nullptr) PQfinish(c_);
    c_ = o.c_;
    may_have_committed_ = o.may_have_committed_;
    o.c_ = nullptr;
  }
  return *this;
}

Connection::~Connection() {
  if (c_ != nullptr) PQfinish(c_);
}

bool Connection::ok() const { return c_ != nullptr && PQstatus(c_) == CONNECTION_OK; }

bool Connection::Alive() {
  if (!ok()) return false;
  // An idle connection is sent nothing unasked but notices; a server that
  // shut down or crashed left its last words (FATAL 57P01) and the end of
  // the stream, and reading them is what tells libpq the connection is gone.
  // libpq reads what has come and stops: the farewell first, the end of
  // the stream on a later read. So read while there is something to read.
  for (int reads = 0; reads < 8; ++reads) {
    pollfd p{PQsocket(c_), POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) break;
    if (PQconsumeInput(c_) == 0) return false;
  }
  return PQstatus(c_) == CONNECTION_OK;
}

void Connection::NoteSending(const std::string& sql) {
  const PGTransactionStatusType t = PQtransactionStatus(c_);
  if (t == PQTRANS_UNKNOWN) return;  // a broken connection sends nothing
  const bool opens = sql == "BEGIN" || sql.rfind("BEGIN ", 0) == 0;
  if (sql == "COMMIT" || (t == PQTRANS_IDLE && !opens && sql != "ROLLBACK")) may_have_committed_ = true;
}

namespace {

Status ErrorOf(pg_conn* c, pg_result* r) {
  const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  const std::string message = Message("postgresql", r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(c));
  if (PQstatus(c) != CONNECTION_OK || state == nullptr) return Status::Unavailable(message);
  if (std::strncmp(state, "23", 2) == 0) return Status::FailedPrecondition(message);
  if (std::strncmp(state, "40", 2) == 0 || std::strncmp(state, "08", 2) == 0 || std::strncmp(state, "57", 2) == 0) {
    return Status::Unavailable(message);  // retry, lost connection, server shutting down
  }
  return Status::Internal(message);
}

}  // namespace

Status Connection::Exec(const std::string& sql) {
  NoteSending(sql);
  pg_result* raw = PQexec(c_, sql.c_str());
  const ExecStatusType status = PQresultStatus(raw);
  Status s = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? Status::Ok() : ErrorOf(c_, raw);
  if (raw != nullptr) PQclear(raw);
  return s;
}

Result<QueryResult> Connection::Query(const std::string& sql, const Params& params, Format format) {
  NoteSending(sql);
  pg_result* raw = PQexecParams(c_, sql.c_str(), params.size(), params.types(), params.values(), params.lengths(),
                                params.formats(), static_cast<int>(format));
  const ExecStatusType status = PQresultStatus(raw);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    Status s = ErrorOf(c_, raw);
    if (raw != nullptr) PQclear(raw);
    return s;
  }
  return QueryResult(raw);
}

}  // namespace pg
}  // namespace ldpgraph
