// The SQL of rounds (report_store.h) that SQLite and PostgreSQL share, with
// each backend's placeholders for the graph and the round (?1 and ?2, or $1
// and $2): one text, so that the two stores cannot come to disagree on which
// report is a user's newest or which one a round's opening lets go.
#ifndef LDPGRAPH_DAEMON_STORE_ROUNDS_SQL_H_
#define LDPGRAPH_DAEMON_STORE_ROUNDS_SQL_H_

#include <string>

namespace ldpgraph {
namespace rounds_sql {

// The columns every read of a round state selects, in RoundState's order
// after the graph id.
constexpr const char* kSelectRoundState = "SELECT graph_id, current_round, opened_unix, history FROM graph_rounds";

// The WHERE clause of `reports r` that keeps each user's newest report up to
// round `round` of graph `graph`: none of hers is newer and still within it.
inline std::string NewestUpTo(const char* graph, const char* round) {
  return std::string("WHERE r.graph_id = ") + graph + " AND r.round <= " + round +
         " AND NOT EXISTS (SELECT 1 FROM reports n WHERE n.graph_id = r.graph_id AND n.user_id = r.user_id"
         " AND n.round > r.round AND n.round <= " + round + ")";
}

// When a round opens: a report older than the oldest kept round `oldest`
// goes once a newer one of the same user stands at or before it.
inline std::string PruneHistory(const char* graph, const char* oldest) {
  return std::string("DELETE FROM reports WHERE graph_id = ") + graph + " AND round < " + oldest +
         " AND EXISTS (SELECT 1 FROM reports n WHERE n.graph_id = reports.graph_id"
         " AND n.user_id = reports.user_id AND n.round > reports.round AND n.round <= " + oldest + ")";
}

}  // namespace rounds_sql
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_ROUNDS_SQL_H_
