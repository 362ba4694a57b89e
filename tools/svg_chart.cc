#include "tools/svg_chart.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace penk::cli {
namespace {

// Coordinates to 1/100 pixel: finer than any screen, and a file that is
// the same for the same chart.
std::string Px(double v) { return absl::StrFormat("%.2f", v); }

std::string StrokeAttributes(const Stroke& s) {
  std::string out = absl::StrCat(" stroke=\"", XmlEscape(s.colour), "\"");
  if (s.width > 0) absl::StrAppend(&out, " stroke-width=\"", absl::StrFormat("%g", s.width), "\"");
  if (!s.dash.empty()) absl::StrAppend(&out, " stroke-dasharray=\"", XmlEscape(s.dash), "\"");
  return out;
}

}  // namespace

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

SvgChart::SvgChart(double width, double height, int font_size) {
  body_ = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
      "font-family=\"sans-serif\" font-size=\"%d\">\n"
      "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
      width, height, width, height, font_size);
}

void SvgChart::Line(double x1, double y1, double x2, double y2, const Stroke& stroke) {
  absl::StrAppend(&body_, "<line x1=\"", Px(x1), "\" y1=\"", Px(y1), "\" x2=\"", Px(x2),
                  "\" y2=\"", Px(y2), "\"", StrokeAttributes(stroke), "/>\n");
}

void SvgChart::Rect(double x, double y, double width, double height, std::string_view fill,
                    std::string_view tooltip) {
  absl::StrAppend(&body_, "<rect x=\"", Px(x), "\" y=\"", Px(y), "\" width=\"", Px(width),
                  "\" height=\"", Px(height), "\" fill=\"", XmlEscape(fill), "\"");
  if (tooltip.empty()) {
    body_ += "/>\n";
  } else {
    absl::StrAppend(&body_, "><title>", XmlEscape(tooltip), "</title></rect>\n");
  }
}

void SvgChart::Circle(double cx, double cy, double r, std::string_view fill) {
  absl::StrAppend(&body_, "<circle cx=\"", Px(cx), "\" cy=\"", Px(cy), "\" r=\"", Px(r),
                  "\" fill=\"", XmlEscape(fill), "\"/>\n");
}

void SvgChart::Polyline(const std::vector<std::pair<double, double>>& points,
                        const Stroke& stroke) {
  std::string list;
  for (const auto& [x, y] : points) absl::StrAppend(&list, list.empty() ? "" : " ", Px(x), ",", Px(y));
  absl::StrAppend(&body_, "<polyline points=\"", list, "\" fill=\"none\"",
                  StrokeAttributes(stroke), "/>\n");
}

void SvgChart::Text(double x, double y, std::string_view text, const TextStyle& style) {
  absl::StrAppend(&body_, "<text x=\"", Px(x), "\" y=\"", Px(y), "\"");
  if (!style.anchor.empty()) absl::StrAppend(&body_, " text-anchor=\"", XmlEscape(style.anchor), "\"");
  if (style.size > 0) absl::StrAppend(&body_, " font-size=\"", style.size, "\"");
  if (!style.fill.empty()) absl::StrAppend(&body_, " fill=\"", XmlEscape(style.fill), "\"");
  if (style.rotate_deg != 0)
    absl::StrAppend(&body_, " transform=\"rotate(", absl::StrFormat("%g", style.rotate_deg), " ",
                    Px(x), " ", Px(y), ")\"");
  absl::StrAppend(&body_, ">", XmlEscape(text), "</text>\n");
}

}  // namespace penk::cli
