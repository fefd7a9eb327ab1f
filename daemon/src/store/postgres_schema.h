// The PostgreSQL store's schema: its migrations, applied in order under an
// advisory lock so that daemons starting together create it once, and the
// transaction helper the store's writes share.
#ifndef LDPGRAPH_DAEMON_STORE_POSTGRES_SCHEMA_H_
#define LDPGRAPH_DAEMON_STORE_POSTGRES_SCHEMA_H_

#include <functional>

#include "ldpgraph/status.h"
#include "store/pg_db.h"

namespace ldpgraph {

// The schema version this build writes.
constexpr int kPostgresSchemaVersion = 5;

// Runs `body` in a transaction; rolls back when it fails.
Status InTransaction(pg::Connection& c, const std::function<Status()>& body);

// Brings the database to kPostgresSchemaVersion.
// Errors: kDataLoss for a newer schema than this build knows, or a schema
// table that does not hold one version; the connection's.
Status MigratePostgresSchema(pg::Connection& c);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_POSTGRES_SCHEMA_H_
