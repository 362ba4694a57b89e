// The one SVG writer (tools/svg_chart.h) and the two charts drawn with it
// (tools/charts.h), read back by an XML parser of their own (Boost's
// property tree, rapidxml inside): well-formed documents, shapes at the
// coordinates computed by hand for hand-built figures, labels escaped.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "boost/property_tree/ptree.hpp"
#include "boost/property_tree/xml_parser.hpp"
#include "gtest/gtest.h"
#include "tools/charts.h"
#include "tools/svg_chart.h"

namespace penk::cli {
namespace {

using boost::property_tree::ptree;

// Parses the document (throws, failing the test, if it is not well-formed
// XML) and returns its <svg> element.
ptree ParseSvg(const std::string& svg) {
  std::istringstream in(svg);
  ptree doc;
  boost::property_tree::read_xml(in, doc);
  EXPECT_EQ(doc.size(), 1u) << "one root element";
  return doc.get_child("svg");
}

std::vector<ptree> Children(const ptree& svg, const std::string& tag) {
  std::vector<ptree> out;
  for (const auto& [name, child] : svg)
    if (name == tag) out.push_back(child);
  return out;
}

double Attr(const ptree& e, const std::string& name) { return e.get<double>("<xmlattr>." + name); }

TEST(SvgChart, EscapesEverySpecialCharacter) {
  EXPECT_EQ(XmlEscape("a<&>\"'b"), "a&lt;&amp;&gt;&quot;&apos;b");
  EXPECT_EQ(XmlEscape("plain"), "plain");
}

TEST(SvgChart, LinearScaleMapsTheEndsAndBetween) {
  const LinearScale y{0, 1, 440, 40};  // upwards
  EXPECT_DOUBLE_EQ(y(0), 440);
  EXPECT_DOUBLE_EQ(y(1), 40);
  EXPECT_DOUBLE_EQ(y(0.25), 340);
  EXPECT_DOUBLE_EQ((LinearScale{2, 2, 7, 9})(5), 7);  // a degenerate range: no division by 0
}

// Every shape comes back from a real parser with the coordinates given, and
// text with < & > in it (in the text and in a tooltip) reads back unchanged.
TEST(SvgChart, ShapesParseBackAtTheirCoordinatesAndTextIsEscaped) {
  SvgChart c(300, 200);
  c.Line(1, 2, 3, 4, Stroke("#abc", 1.5, "4 4"));
  c.Rect(10, 20, 30, 40, "red", "tip <&>");
  c.Circle(50, 60, 3, "blue");
  c.Polyline({{1, 1}, {2.5, 3.25}}, Stroke("green"));
  c.Text(70, 80, "a <&> b", TextStyle().Anchor("middle").Size(15).Rotate(-90));
  const std::string svg = c.Svg();
  EXPECT_NE(svg.find("a &lt;&amp;&gt; b"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("<&>"), std::string::npos) << svg;
  const ptree root = ParseSvg(svg);
  EXPECT_EQ(Attr(root, "width"), 300);
  EXPECT_EQ(Attr(root, "height"), 200);
  const std::vector<ptree> lines = Children(root, "line");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(Attr(lines[0], "x1"), 1);
  EXPECT_EQ(Attr(lines[0], "y2"), 4);
  EXPECT_EQ(lines[0].get<std::string>("<xmlattr>.stroke-dasharray"), "4 4");
  const std::vector<ptree> rects = Children(root, "rect");
  ASSERT_EQ(rects.size(), 2u);  // the white background, then ours
  EXPECT_EQ(Attr(rects[1], "x"), 10);
  EXPECT_EQ(Attr(rects[1], "height"), 40);
  EXPECT_EQ(rects[1].get<std::string>("title"), "tip <&>");
  const std::vector<ptree> circles = Children(root, "circle");
  ASSERT_EQ(circles.size(), 1u);
  EXPECT_EQ(Attr(circles[0], "cx"), 50);
  EXPECT_EQ(Attr(circles[0], "cy"), 60);
  EXPECT_EQ(Children(root, "polyline")[0].get<std::string>("<xmlattr>.points"),
            "1.00,1.00 2.50,3.25");
  const std::vector<ptree> texts = Children(root, "text");
  ASSERT_EQ(texts.size(), 1u);
  EXPECT_EQ(texts[0].get_value<std::string>(), "a <&> b");
  EXPECT_EQ(texts[0].get<std::string>("<xmlattr>.transform"), "rotate(-90 70.00 80.00)");
}

// The reliability diagram of two hand-built tables: each non-empty bucket a
// point at (60 + 400 predicted, 440 - 400 observed), its interval a
// vertical line there, the names escaped in the legend.
TEST(Charts, ReliabilityPointsWhereTheBucketsSay) {
  ReliabilityTable a, b;
  a.buckets[2] = {.positions = 10, .predicted = 0.25, .observed = 0.5, .ci_low = 0.25, .ci_high = 0.75};
  a.buckets[9] = {.positions = 5, .predicted = 0.95, .observed = 1, .ci_low = 0.9, .ci_high = 1};
  b.buckets[5] = {.positions = 1, .predicted = 0.5, .observed = 0.125, .ci_low = 0, .ci_high = 0.5};
  a.positions = 15;
  b.positions = 1;
  const ptree root = ParseSvg(ReliabilitySvg({{"raw <&>", a}, {"calibrated", b}}, "t & u"));
  const std::vector<ptree> circles = Children(root, "circle");
  ASSERT_EQ(circles.size(), 3u);
  const double want[3][2] = {{160, 240}, {440, 40}, {260, 390}};
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(Attr(circles[i], "cx"), want[i][0]) << i;
    EXPECT_DOUBLE_EQ(Attr(circles[i], "cy"), want[i][1]) << i;
  }
  const std::vector<ptree> curves = Children(root, "polyline");
  ASSERT_EQ(curves.size(), 2u);
  EXPECT_EQ(curves[0].get<std::string>("<xmlattr>.points"), "160.00,240.00 440.00,40.00");
  bool interval = false;  // bucket 2 of a: from y(0.25) = 340 to y(0.75) = 140 at x = 160
  for (const ptree& l : Children(root, "line"))
    interval |= Attr(l, "x1") == 160 && Attr(l, "x2") == 160 && Attr(l, "y1") == 340 &&
                Attr(l, "y2") == 140;
  EXPECT_TRUE(interval);
  std::vector<std::string> texts;
  for (const ptree& t : Children(root, "text")) texts.push_back(t.get_value<std::string>());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "t & u"), texts.end());
  EXPECT_NE(std::find(texts.begin(), texts.end(), "raw <&>: Brier 0.0000, 15 positions"), texts.end());
}

// A distribution of four scores: four bars, each centred on its score and
// as tall as its probability on the y scale, the overlay one step line.
TEST(Charts, DistributionBarsWhereTheScoresSay) {
  ScoreDistribution d, other;
  const int scores[4] = {0, 5, 10, 12};
  for (int s : scores) d.pmf[s] = 0.25;
  for (int s = 10; s <= 13; ++s) other.pmf[s] = 0.25;
  const ptree root = ParseSvg(ScoreDistributionSvg(d, "<title>", "a & b", &other, "c"));
  // x_max = 20 (the largest score 13, rounded up past it), so a score is
  // 780 / 21 pixels wide from x = 60; the highest p is 0.25, so the grid
  // steps by 2% up to 26%: y = 380 at p = 0, 50 at p = 0.26.
  const double bw = 780.0 / 21, per_p = 330 / 0.26;
  std::vector<ptree> bars;
  for (const ptree& r : Children(root, "rect"))
    if (r.count("title")) bars.push_back(r);
  ASSERT_EQ(bars.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(Attr(bars[i], "x") + Attr(bars[i], "width") / 2, 60 + bw * (scores[i] + 0.5), 0.01);
    EXPECT_NEAR(Attr(bars[i], "y"), 380 - per_p * 0.25, 0.01);
    EXPECT_NEAR(Attr(bars[i], "height"), per_p * 0.25, 0.01);
  }
  EXPECT_EQ(bars[3].get<std::string>("title"), "12: 25.0000%");
  ASSERT_EQ(Children(root, "polyline").size(), 1u);
  std::vector<std::string> texts;
  for (const ptree& t : Children(root, "text")) texts.push_back(t.get_value<std::string>());
  EXPECT_EQ(texts[0], "<title>");
  EXPECT_NE(std::find(texts.begin(), texts.end(), "26%"), texts.end());  // the top grid line
  EXPECT_NE(std::find(texts.begin(), texts.end(), "a & b: mean 6.75, sd 4.66"), texts.end());
}

// The training curve of `penk neural curve`: a well-formed document with
// one line and one dot per epoch in each of its four panels; the best
// validation log loss (the lowest) at the bottom of its panel's band, the
// highest at the top (the range is padded by 8% each side).
TEST(Charts, TrainingCurveHasADotPerEpochInEachPanel) {
  std::vector<TrainingEpoch> epochs;
  for (int e = 1; e <= 5; ++e) epochs.push_back({e, 3.0 / e, 1.0 - 0.05 * e, 0.2 - 0.01 * e, 40.0 - e});
  const ptree root = ParseSvg(TrainingCurveSvg(epochs, "a <curve>"));
  EXPECT_EQ(Children(root, "polyline").size(), 4u);
  const std::vector<ptree> dots = Children(root, "circle");
  ASSERT_EQ(dots.size(), 20u);
  // The first panel spans y 44..214; its values 0.95..0.75, padded by 0.016.
  const double lo = 0.75 - 0.016, hi = 0.95 + 0.016;
  EXPECT_NEAR(Attr(dots[0], "cy"), 214 - 170 * (0.95 - lo) / (hi - lo), 0.01);
  EXPECT_NEAR(Attr(dots[4], "cy"), 214 - 170 * (0.75 - lo) / (hi - lo), 0.01);
  EXPECT_NEAR(Attr(dots[0], "cx"), 70, 0.01);
  EXPECT_NEAR(Attr(dots[4], "cx"), 690, 0.01);
  EXPECT_EQ(Children(root, "text")[0].get_value<std::string>(), "a <curve>");
  // One epoch only: still a document, the dots at the left edge.
  const ptree one = ParseSvg(TrainingCurveSvg({epochs[0]}, "one"));
  EXPECT_EQ(Children(one, "circle").size(), 4u);
}

}  // namespace
}  // namespace penk::cli
