#include "server/web_files.h"

namespace penk::server {

const WebFile* FindWebFile(std::string_view target) {
  std::string_view path = target.substr(0, target.find_first_of("?#"));
  if (path == "/") path = "/index.html";
  const WebFile* files = WebFiles();
  for (size_t i = 0; i < WebFileCount(); ++i)
    if (files[i].path == path) return &files[i];
  return nullptr;
}

}  // namespace penk::server
