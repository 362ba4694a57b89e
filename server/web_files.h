// The page's files (web/), compiled into the binary at build time
// (cmake/embed_web.cmake writes web_files_data.cc): `penk serve` works from
// any folder, and no path of a request ever reaches the file system.
#ifndef PENK_SERVER_WEB_FILES_H_
#define PENK_SERVER_WEB_FILES_H_

#include <cstddef>
#include <string_view>

namespace penk::server {

struct WebFile {
  std::string_view path;          // "/index.html": the URL path that serves it
  std::string_view content_type;  // from the file's extension
  std::string_view body;
};

// Every compiled-in file, in name order.
const WebFile* WebFiles();
size_t WebFileCount();

// The file served for a request target ("/" is "/index.html"; a query string
// is ignored); nullptr when there is none. Compared as text with the
// compiled-in names only: "/../etc/passwd" or "/%2e%2e/x" simply match nothing.
const WebFile* FindWebFile(std::string_view target);

}  // namespace penk::server

#endif  // PENK_SERVER_WEB_FILES_H_
