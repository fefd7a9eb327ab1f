#include "store/pg_pool.h"

#include <memory>

namespace ldpgraph {
namespace pg {

Result<std::unique_ptr<Pool>> Pool::Open(const std::string& conninfo, const std::string& password, std::size_t size) {
  if (size == 0) return Status::InvalidArgument("a connection pool needs at least one connection");
  std::unique_ptr<Pool> pool(new Pool(conninfo, password));
  for (std::size_t i = 0; i < size; ++i) {
    Result<Connection> c = Connection::Open(conninfo, password);
    if (!c.ok()) return c.status();
    pool->all_.push_back(std::make_unique<Connection>(std::move(c).value()));
    pool->idle_.push_back(pool->all_.back().get());
  }
  return pool;
}

Result<Connection*> Pool::Lease() {
  Connection* c = nullptr;
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return !idle_.empty(); });
    c = idle_.back();
    idle_.pop_back();
  }
  if (!c->Alive()) {
    Result<Connection> fresh = Connection::Open(conninfo_, password_);
    if (!fresh.ok()) {
      Return(c);
      return fresh.status();
    }
    *c = std::move(fresh).value();
  }
  c->ForgetCommits();
  return c;
}

void Pool::Return(Connection* c) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(c);
  }
  cv_.notify_one();
}

Status Pool::Run(const std::function<Status(Connection&)>& work) {
  for (int attempt = 0;; ++attempt) {
    Result<Connection*> c = Lease();
    if (!c.ok()) return c.status();
    Status s = work(**c);
    const bool unsent = !(*c)->ok() && !(*c)->MayHaveCommitted();
    Return(*c);
    if (s.ok() || s.code() != StatusCode::kUnavailable || !unsent || attempt == 1) return s;
  }
}

Status Pool::Read(const std::function<Status(Connection&)>& work) {
  for (int attempt = 0;; ++attempt) {
    Result<Connection*> c = Lease();
    if (!c.ok()) return c.status();
    Status s = work(**c);
    const bool dropped = !(*c)->ok();
    Return(*c);
    if (s.ok() || s.code() != StatusCode::kUnavailable || !dropped || attempt == 1) return s;
  }
}

}  // namespace pg
}  // namespace ldpgraph
