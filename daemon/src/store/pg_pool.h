// A fixed number of PostgreSQL connections shared by threads: a caller
// leases one for a unit of work and gives it back. A connection found
// broken (the server restarted, a network blip) is reopened on lease, so
// a database restart costs no request that comes after it (issue 66): the
// lease reads what the server left on an idle connection, which is how a
// restart shows.
#ifndef LDPGRAPH_DAEMON_STORE_PG_POOL_H_
#define LDPGRAPH_DAEMON_STORE_PG_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "store/pg_db.h"

namespace ldpgraph {
namespace pg {

class Pool {
 public:
  // Opens `size` connections now, so that a wrong address or password
  // fails at start. Errors: Connection::Open's.
  static Result<std::unique_ptr<Pool>> Open(const std::string& conninfo, const std::string& password,
                                            std::size_t size);

  // Runs `work` on a leased connection. Work that fails on a connection
  // the server dropped runs once more on a fresh one when nothing it sent
  // can have committed (it failed before its COMMIT, or its first statement
  // never left); otherwise it is not repeated (a statement whose answer was
  // lost may have committed) and the caller gets the error.
  Status Run(const std::function<Status(Connection&)>& work);
  // The same for work that only reads: when it fails on a connection the
  // server dropped (a restart, a failover), it runs once more on a fresh one.
  Status Read(const std::function<Status(Connection&)>& work);

 private:
  Pool(std::string conninfo, std::string password) : conninfo_(std::move(conninfo)), password_(std::move(password)) {}
  Result<Connection*> Lease();
  void Return(Connection* c);

  std::string conninfo_, password_;
  std::vector<std::unique_ptr<Connection>> all_;
  std::vector<Connection*> idle_;
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace pg
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_PG_POOL_H_
