// The console's sign-in session. The operator types the admin token once;
// the daemon answers with a cookie that proves she did, for 12 hours,
// without holding the token: "EXPIRY.MAC", MAC = base64url HMAC-SHA256 under the
// admin token of "ldpgraph-console:EXPIRY". A new admin token (a restart
// with another file) ends every session. The cookie is HttpOnly, Secure
// and SameSite=Strict (another site's page cannot make the browser send
// it), and sent only to /console.
#ifndef LDPGRAPH_DAEMON_CONSOLE_CONSOLE_SESSION_H_
#define LDPGRAPH_DAEMON_CONSOLE_CONSOLE_SESSION_H_

#include <cstdint>
#include <string>

namespace ldpgraph {

constexpr std::int64_t kConsoleSessionSeconds = 12 * 3600;
constexpr char kConsoleCookieName[] = "ldpgraph_console";

// The Set-Cookie value of a session that starts at `now` (Unix seconds).
std::string SessionCookie(const std::string& admin_token, std::int64_t now);
// The Set-Cookie value that ends a session.
std::string ClearedSessionCookie();
// Whether a Cookie header carries a session made with `admin_token` that
// has not expired at `now` (MAC compared in constant time).
bool HasValidSession(const std::string& cookie_header, const std::string& admin_token, std::int64_t now);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CONSOLE_CONSOLE_SESSION_H_
