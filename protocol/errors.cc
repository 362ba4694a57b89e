#include "protocol/errors.h"

namespace penk::protocol {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kBadJson: return "bad_json";
    case ErrorCode::kUnknownCommand: return "unknown_command";
    case ErrorCode::kBadField: return "bad_field";
    case ErrorCode::kBadPosition: return "bad_position";
    case ErrorCode::kUnknownGame: return "unknown_game";
    case ErrorCode::kIllegalAction: return "illegal_action";
    case ErrorCode::kUnknownLevel: return "unknown_level";
    case ErrorCode::kTable: return "table_error";
    case ErrorCode::kLimit: return "limit";
    case ErrorCode::kInternal: return "internal";
    case ErrorCode::kBufferTooSmall: return "buffer_too_small";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kTimeOut: return "time_out";
  }
  return "internal";
}

}  // namespace penk::protocol
