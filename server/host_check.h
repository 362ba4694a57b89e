// Which pages may use the server (issue 20 item 10): DNS rebinding points a
// name of the attacker's (evil.example) at 127.0.0.1, so the browser sends
// `Host: evil.example:PORT` and an Origin that matches it. Comparing Origin
// with Host alone lets that page in; naming the hosts served does not.
#ifndef PENK_SERVER_HOST_CHECK_H_
#define PENK_SERVER_HOST_CHECK_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace penk::server {

class HostCheck {
 public:
  // `listen_host`: the address listened on (its own spelling is served; the
  // any-address 0.0.0.0 or :: serves every IP-literal Host, which no DNS name
  // can stand for); `allowed`: more names (`penk serve --allow-host`).
  HostCheck(const std::string& listen_host, const std::vector<std::string>& allowed);

  // "" when a request with this Host header (absent: `nullptr`) is served,
  // else the one-line reason. No Host (HTTP/1.0, programs) is served: a
  // browser always sends one.
  std::string HostError(const std::string_view* host) const;
  // "" when a WebSocket handshake with this Origin (absent: nullptr) and Host
  // may have the engine: no Origin (not a browser), or an http/https origin
  // naming the Host itself (which HostError accepted).
  static std::string OriginError(const std::string_view* origin, const std::string_view* host);

  // The names served, for messages: "localhost, 127.0.0.1, [::1]".
  std::string Served() const;

 private:
  std::set<std::string> names_;  // lower case; IPv6 in brackets
  bool any_ip_literal_ = false;
};

}  // namespace penk::server

#endif  // PENK_SERVER_HOST_CHECK_H_
