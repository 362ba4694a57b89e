#include "tables/table_file.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array_wrapper.hpp>

#include "absl/strings/str_cat.h"

namespace boost::serialization {
template <class Archive>
void serialize(Archive& ar, penk::TableHeader& h, const unsigned int) {
  ar& h.magic& h.format_version& h.line_min& h.penk_rows& h.state_count& h.max_free& h.blocked_rows& h.checksum;
}
}  // namespace boost::serialization

namespace penk {

std::string TableTempPath(const std::string& path) {
  return absl::StrCat(path, ".tmp.", ::getpid());
}

uint64_t ValuesChecksum(const std::vector<double>& values) {
  constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t lane[4] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL, 0x9e3779b97f4a7c15ULL,
                      0xbf58476d1ce4e5b9ULL};
  const size_t n = values.size();
  auto word = [&](size_t i) {
    uint64_t w;
    std::memcpy(&w, &values[i], sizeof w);
    return w;
  };
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int j = 0; j < 4; ++j) lane[j] = (lane[j] ^ word(i + j)) * kPrime;
  for (; i < n; ++i) lane[0] = (lane[0] ^ word(i)) * kPrime;
  uint64_t h = n;
  for (uint64_t x : lane) h = (h ^ x ^ (x >> 29)) * kPrime;
  return h;
}

absl::Status WriteTable(const SolitaireTable& table, const std::string& path) {
  TableHeader h;
  h.line_min = table.rules().line_min;
  h.penk_rows = table.rules().penk_rows;
  h.state_count = table.values().size();
  h.max_free = table.max_free();
  h.blocked_rows = table.blocked_rows();
  h.checksum = ValuesChecksum(table.values());
  return WriteTableFile(h, table.values(), path);
}

absl::Status WriteTableFile(const TableHeader& h, const std::vector<double>& values,
                            const std::string& path) {
  const std::string tmp = TableTempPath(path);
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::UnavailableError(absl::StrCat("cannot write table file ", tmp));
    boost::archive::binary_oarchive ar(out);
    ar << h;
    ar << boost::serialization::make_array(values.data(), values.size());
    out.flush();
    if (!out) return absl::UnavailableError(absl::StrCat("writing table file ", tmp, " failed"));
  } catch (const std::exception& e) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("writing table file ", tmp, " failed: ", e.what()));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("cannot move the new table into ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<SolitaireTable> ReadTable(const std::string& path, const Rules& rules,
                                         uint32_t blocked_rows) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("table file ", path, " not found"));
  auto bad = [&](absl::string_view why) {
    return absl::DataLossError(absl::StrCat("table file ", path, " refused: ", why));
  };
  TableHeader h;
  std::vector<double> values;
  try {
    boost::archive::binary_iarchive ar(in);
    ar >> h;
    if (h.magic != kTableMagic) return bad("not a PENK value table");
    if (h.format_version != kTableFormatVersion)
      return bad(absl::StrCat("format version ", h.format_version, ", this penk reads version ",
                              kTableFormatVersion));
    Rules file_rules;
    file_rules.line_min = h.line_min;
    file_rules.penk_rows = h.penk_rows != 0;
    if (file_rules != rules)
      return bad(absl::StrCat("it is for rules ", FormatRules(file_rules), ", not ",
                              FormatRules(rules)));
    if (h.state_count != static_cast<uint64_t>(kNumSolitaireStates))
      return bad(absl::StrCat("it has ", h.state_count, " states, expected ",
                              kNumSolitaireStates));
    if (h.blocked_rows != blocked_rows)
      return bad(absl::StrCat("it is for blocked rows ", h.blocked_rows, ", not ", blocked_rows));
    if (h.max_free < 0 || h.max_free > kRows * kColumns)
      return bad(absl::StrCat("solved depth ", h.max_free, " is not 0..25"));
    values.resize(h.state_count);
    ar >> boost::serialization::make_array(values.data(), values.size());
  } catch (const std::exception& e) {
    return bad(absl::StrCat("truncated or corrupted (", e.what(), ")"));
  }
  if (in.peek() != std::ifstream::traits_type::eof()) return bad("trailing bytes after the values");
  if (ValuesChecksum(values) != h.checksum) return bad("checksum mismatch: the values are corrupted");
  return SolitaireTable(rules, h.max_free, std::move(values), blocked_rows);
}

}  // namespace penk
