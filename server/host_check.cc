#include "server/host_check.h"

#include <optional>

#include <boost/asio/ip/address.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace penk::server {
namespace {

// Messages quote what the client sent, cut short: a header may be 16 KiB.
std::string Quoted(std::string_view s) {
  constexpr size_t kShown = 80;
  return absl::StrCat("\"", std::string(s.substr(0, kShown)), s.size() > kShown ? "...\"" : "\"");
}

// The name of "name", "name:port", "[v6]" or "[v6]:port", lower case (IPv6
// kept in brackets); nullopt when it is none of those.
std::optional<std::string> NameOf(std::string_view host) {
  std::string_view name = host, rest;
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    name = host.substr(0, close + 1);
    rest = host.substr(close + 1);
  } else if (const size_t colon = host.find(':'); colon != std::string_view::npos) {
    name = host.substr(0, colon);
    rest = host.substr(colon);
  }
  if (!rest.empty()) {
    if (rest.size() < 2 || rest[0] != ':') return std::nullopt;
    for (char c : rest.substr(1))
      if (c < '0' || c > '9') return std::nullopt;
  }
  if (name.empty()) return std::nullopt;
  return absl::AsciiStrToLower(std::string(name));
}

bool IsIpLiteral(const std::string& name) {
  boost::system::error_code ec;
  if (absl::StartsWith(name, "["))
    boost::asio::ip::make_address_v6(name.substr(1, name.size() - 2), ec);
  else
    boost::asio::ip::make_address_v4(name, ec);
  return !ec;
}

}  // namespace

HostCheck::HostCheck(const std::string& listen_host, const std::vector<std::string>& allowed)
    : names_{"localhost", "127.0.0.1", "[::1]"} {
  if (listen_host == "0.0.0.0" || listen_host == "::") {
    any_ip_literal_ = true;
  } else if (listen_host.find(':') != std::string::npos) {
    names_.insert(absl::StrCat("[", absl::AsciiStrToLower(listen_host), "]"));
  } else {
    names_.insert(absl::AsciiStrToLower(listen_host));
  }
  for (const std::string& a : allowed) {
    // An IPv6 address may be given bare; a port given with a name is ignored
    // (the port plays no part: see HostError).
    const bool bare_v6 = !absl::StartsWith(a, "[") && a.find(':') != a.rfind(':');
    if (std::optional<std::string> n = NameOf(bare_v6 ? absl::StrCat("[", a, "]") : a))
      names_.insert(*n);
  }
}

std::string HostCheck::Served() const {
  std::string s = absl::StrJoin(names_, ", ");
  if (any_ip_literal_) absl::StrAppend(&s, ", any IP address of this machine");
  return s;
}

std::string HostCheck::HostError(const std::string_view* host) const {
  if (host == nullptr) return "";
  // The port is not compared: a browser's page at another port is another
  // origin, and the Origin check below sees it; the name is what DNS
  // rebinding forges.
  const std::optional<std::string> name = NameOf(*host);
  if (!name)
    return absl::StrCat("Host ", Quoted(*host), " is not a host name with an optional port");
  if (names_.count(*name) || (any_ip_literal_ && IsIpLiteral(*name))) return "";
  return absl::StrCat("host ", Quoted(*name), " is not served here (served: ", Served(),
                      "; penk serve --allow-host NAME serves another)");
}

std::string HostCheck::OriginError(const std::string_view* origin, const std::string_view* host) {
  if (origin == nullptr) return "";  // not a browser: no ambient authority to abuse
  std::string_view rest;
  const std::string lower = absl::AsciiStrToLower(std::string(*origin));
  if (absl::StartsWith(lower, "http://")) {
    rest = std::string_view(lower).substr(7);
  } else if (absl::StartsWith(lower, "https://")) {
    rest = std::string_view(lower).substr(8);
  } else {
    return absl::StrCat("Origin ", Quoted(*origin),
                        " is refused: only http:// and https:// pages may use the engine");
  }
  if (host == nullptr || rest != absl::AsciiStrToLower(std::string(*host)))
    return absl::StrCat("Origin ", Quoted(*origin), " is another site than this server (",
                        host ? Quoted(*host) : std::string("no Host"),
                        "): the engine serves pages of this host only");
  return "";
}

}  // namespace penk::server
