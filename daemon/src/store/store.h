// Store: what a store backend implements, by concept: reports
// (report_store.h), graphs (graph_store.h), jobs (job_store.h) and the queue
// several daemons share (shared_job_queue.h). The daemon hands each part of
// itself the interface it needs. SQLite (sqlite_report_store.h) is the
// embedded backend, PostgreSQL (postgres_report_store.h) the one several
// daemons share.
//
// The contract every backend keeps:
//   - one report per (graph, user, round): a second insert with the same
//     report id and bytes is a duplicate (acknowledged, stored once);
//     anything else for that triple is a conflict (it would spend the
//     user's budget twice);
//   - a graph collected once takes round 0 only; a graph collected in rounds
//     (docs/rounds.md) takes reports of its open round only, checked in the
//     transaction that stores them: once round r + 1 is open no report of
//     round r commits, so a closed round's graph never changes;
//   - Insert()'s callback runs only after the transaction holding the report
//     is durable, so an acknowledgement is never lost by a crash.
#ifndef LDPGRAPH_DAEMON_STORE_STORE_H_
#define LDPGRAPH_DAEMON_STORE_STORE_H_

#include "store/graph_store.h"
#include "store/job_store.h"
#include "store/report_store.h"
#include "store/shared_job_queue.h"

namespace ldpgraph {

class Store : public ReportStore, public GraphStore, public JobStore, public SharedJobQueue {
 public:
  // Commits what is queued, answers every callback, stops the store's threads.
  // Inserts after Close() fail with kUnavailable.
  virtual void Close() = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_STORE_STORE_H_
