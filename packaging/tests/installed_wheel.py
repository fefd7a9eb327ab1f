"""The wheel as installed by pip in a clean root, against the installed daemon.

    python installed_wheel.py URL CA ADMIN_TOKEN_FILE GRAPH_ID

Creates a graph of 50 users, has each build her report with the wheel's
device code (DPRR on a ring of friends) and upload it with her own token,
then checks the daemon counts all 50. Prints key=value lines.
"""
import sys

import numpy as np

from ldpgraph import client, device


def main():
    url, ca, token_file, graph_id = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    users = 50
    with client.Client(url, ca, admin_token_file=token_file) as admin:
        admin.create_graph({"graph_id": graph_id, "num_users": users, "edges": {"mechanism": "dprr", "epsilon": 2.0}})
        tokens = admin.user_tokens(graph_id, first=0, count=users)
        builder = device.ReportBuilder(admin.graph_config(graph_id))
        for user in range(users):
            ring = np.array([(user + 1) % users, (user - 1) % users])
            admin.send_report(device.encode_report(builder.build(user, ring)), tokens[user])
        counted = {g["graph_id"]: g["reports"] for g in admin.graphs()["graphs"]}[graph_id]
    print("wheel_reports_uploaded=%d" % users)
    print("wheel_reports_counted=%d" % counted)
    if counted != users:
        sys.exit("the daemon counts %d reports of graph %d, not %d" % (counted, graph_id, users))


if __name__ == "__main__":
    main()
