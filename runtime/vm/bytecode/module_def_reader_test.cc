// Tests of the bounds-checked FlatBuffer reader through the module parser,
// on hand-built buffers: each case breaks one rule and must get a clean
// error naming the problem.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "runtime/base/endian.h"
#include "runtime/base/flatbuffer_reader.h"
#include "runtime/vm/bytecode/module_def.h"

namespace ember::vm::bytecode {
namespace {

// A tiny front-to-back FlatBuffer writer. FlatBuffer offsets are unsigned
// and point forward, so a parent is written before its children and its
// offset fields are patched once the children's positions are known.
class Writer {
 public:
  // A root-offset slot, then the file identifier.
  Writer() : bytes_{0, 0, 0, 0, 'I', 'R', 'E', 'E'} {}

  size_t size() const { return bytes_.size(); }
  std::vector<uint8_t>& bytes() { return bytes_; }

  void Align(size_t alignment) {
    while (bytes_.size() % alignment) bytes_.push_back(0);
  }
  size_t U32(uint32_t value) {
    Align(4);
    size_t at = bytes_.size();
    bytes_.resize(at + 4);
    StoreLE(&bytes_[at], value);
    return at;
  }
  void Put32(size_t at, uint32_t value) { StoreLE(&bytes_[at], value); }
  // Points the uoffset at `at` to `target`.
  void Link(size_t at, size_t target) {
    Put32(at, static_cast<uint32_t>(target - at));
  }

  // A vtable with the given field offsets (0 = absent); returns its position.
  size_t Vtable(const std::vector<uint16_t>& fields, uint16_t table_size) {
    Align(2);
    size_t at = bytes_.size();
    auto push16 = [this](uint16_t v) {
      bytes_.resize(bytes_.size() + 2);
      StoreLE(&bytes_[bytes_.size() - 2], v);
    };
    push16(static_cast<uint16_t>(4 + 2 * fields.size()));
    push16(table_size);
    for (uint16_t field : fields) push16(field);
    return at;
  }
  // A table whose inline data is `slots` u32 words after the soffset.
  // Returns the table position; word i lives at position + 4 + 4 * i.
  size_t Table(size_t vtable, size_t words) {
    size_t at = U32(0);
    int32_t soffset = static_cast<int32_t>(at) - static_cast<int32_t>(vtable);
    StoreLE(&bytes_[at], soffset);
    for (size_t i = 0; i < words; ++i) U32(0);
    return at;
  }
  size_t String(const std::string& text, bool terminate = true) {
    size_t at = U32(static_cast<uint32_t>(text.size()));
    for (char c : text) bytes_.push_back(static_cast<uint8_t>(c));
    if (terminate) bytes_.push_back(0);
    return at;
  }
  std::span<const uint8_t> span() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// A minimal valid module: root table with only the required name.
Writer MinimalModule(const std::string& name = "m") {
  Writer w;
  size_t vtable = w.Vtable({4}, 8);
  size_t root = w.Table(vtable, 1);
  w.Link(0, root);
  size_t text = w.String(name);
  w.Link(root + 4, text);
  return w;
}

TEST(FlatBufferReader, MinimalModuleParses) {
  Writer w = MinimalModule("hello");
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  EXPECT_EQ(def->name, "hello");
  EXPECT_TRUE(def->exported_functions.empty());
  EXPECT_FALSE(def->debug_database.has_value());
}

TEST(FlatBufferReader, RejectsTinyBuffer) {
  std::vector<uint8_t> bytes = {1, 2, 3};
  Result<ModuleDef> def = ParseModuleDef(bytes);
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("too small"), std::string::npos)
      << def.status().ToString();
}

TEST(FlatBufferReader, RejectsWrongIdentifier) {
  Writer w = MinimalModule();
  std::memcpy(&w.bytes()[4], "NOPE", 4);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("identifier"), std::string::npos);
}

TEST(FlatBufferReader, RejectsRootOffsetPastEnd) {
  Writer w = MinimalModule();
  w.Put32(0, 0x10000);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_EQ(def.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(def.status().ToString().find("past the end"), std::string::npos);
}

TEST(FlatBufferReader, RejectsVtableOutOfBounds) {
  Writer w = MinimalModule();
  const uint32_t root = LoadLE<uint32_t>(&w.bytes()[0]);
  w.Put32(root, static_cast<uint32_t>(-100000));  // vtable far past the end
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("vtable"), std::string::npos);
}

TEST(FlatBufferReader, RejectsFieldOutsideTable) {
  Writer w;
  size_t vtable = w.Vtable({40}, 8);  // field offset beyond the 8-byte table
  size_t root = w.Table(vtable, 1);
  w.Link(0, root);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("outside its table"),
            std::string::npos)
      << def.status().ToString();
}

TEST(FlatBufferReader, RejectsUnterminatedString) {
  Writer w;
  size_t vtable = w.Vtable({4}, 8);
  size_t root = w.Table(vtable, 1);
  w.Link(0, root);
  size_t text = w.String("abcd", /*terminate=*/false);
  w.Link(root + 4, text);
  w.bytes().push_back('x');  // a non-zero byte where the NUL should be
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("NUL"), std::string::npos);
  EXPECT_NE(def.status().ToString().find("at name"), std::string::npos)
      << "error should name the field: " << def.status().ToString();
}

TEST(FlatBufferReader, RejectsStringLongerThanBuffer) {
  Writer w = MinimalModule();
  const uint32_t root = LoadLE<uint32_t>(&w.bytes()[0]);
  size_t text_at = root + 4 + w.bytes()[root + 4];
  w.Put32(text_at, 0xFFFFFFF0u);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("runs past the end"),
            std::string::npos);
}

TEST(FlatBufferReader, RejectsVectorCountOverflow) {
  // Slot 12 (function_descriptors, 20-byte structs) with a count whose byte
  // size overflows 32 bits.
  Writer w;
  std::vector<uint16_t> fields(13, 0);
  fields[0] = 4;
  fields[12] = 8;
  size_t vtable = w.Vtable(fields, 12);
  size_t root = w.Table(vtable, 2);
  w.Link(0, root);
  w.Link(root + 4, w.String("m"));
  size_t vector = w.U32(0x0CCCCCCD);  // * 20 wraps around 2^32
  w.Link(root + 8, vector);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("function_descriptors"),
            std::string::npos)
      << def.status().ToString();
}

TEST(FlatBufferReader, RejectsMissingRequiredName) {
  Writer w;
  size_t vtable = w.Vtable({0}, 4);
  size_t root = w.Table(vtable, 0);
  w.Link(0, root);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("required"), std::string::npos);
}

// Many offsets pointing at one shared subtree would make a naive walk
// quadratic; the visit budget must stop it quickly with a clear error.
TEST(FlatBufferReader, SharedSubtreesHitTheBudget) {
  constexpr uint32_t kSignatures = 2000;
  constexpr uint32_t kAttrs = 2000;
  Writer w;
  std::vector<uint16_t> fields(9, 0);
  fields[0] = 4;  // name
  fields[8] = 8;  // function_signatures
  size_t vtable = w.Vtable(fields, 12);
  size_t root = w.Table(vtable, 2);
  w.Link(0, root);
  w.Link(root + 4, w.String("m"));
  size_t signatures = w.U32(kSignatures);
  std::vector<size_t> signature_slots;
  for (uint32_t i = 0; i < kSignatures; ++i)
    signature_slots.push_back(w.U32(0));
  w.Link(root + 8, signatures);
  size_t signature_vtable = w.Vtable({0, 4}, 8);
  size_t signature = w.Table(signature_vtable, 1);
  for (size_t slot : signature_slots) w.Link(slot, signature);
  size_t attrs = w.U32(kAttrs);
  std::vector<size_t> attr_slots;
  for (uint32_t i = 0; i < kAttrs; ++i) attr_slots.push_back(w.U32(0));
  w.Link(signature + 4, attrs);
  size_t attr_vtable = w.Vtable({4, 0}, 8);
  size_t attr = w.Table(attr_vtable, 1);
  w.Link(attr + 4, w.String("k"));
  for (size_t slot : attr_slots) w.Link(slot, attr);

  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("too many objects"), std::string::npos)
      << def.status().ToString();
}

// A root whose debug_database (slot 15) has the location table (types and
// values at +4 and +8) or the function source maps (at +12); returns the
// debug database table.
size_t ModuleWithDebugDatabase(Writer& w, bool location_table) {
  std::vector<uint16_t> fields(16, 0);
  fields[0] = 4;
  fields[15] = 8;
  size_t vtable = w.Vtable(fields, 12);
  size_t root = w.Table(vtable, 2);
  w.Link(0, root);
  w.Link(root + 4, w.String("m"));
  size_t db_vtable =
      location_table ? w.Vtable({4, 8, 0}, 16) : w.Vtable({0, 0, 12}, 16);
  size_t db = w.Table(db_vtable, 3);
  w.Link(root + 8, db);
  return db;
}

// `entries` location table entries that all point at one fused location with
// `children` child indices.
Writer SharedFusedLocation(uint32_t entries, uint32_t children) {
  Writer w;
  size_t db = ModuleWithDebugDatabase(w, /*location_table=*/true);
  size_t types = w.U32(entries);
  for (uint32_t i = 0; i < entries; ++i) w.bytes().push_back(3);  // FusedLoc
  size_t values = w.U32(entries);
  std::vector<size_t> value_slots;
  for (uint32_t i = 0; i < entries; ++i) value_slots.push_back(w.U32(0));
  w.Link(db + 4, types);
  w.Link(db + 8, values);
  size_t fused_vtable = w.Vtable({0, 4}, 8);
  size_t fused = w.Table(fused_vtable, 1);
  for (size_t slot : value_slots) w.Link(slot, fused);
  size_t vector = w.U32(children);
  for (uint32_t i = 0; i < children; ++i) w.U32(0);
  w.Link(fused + 4, vector);
  return w;
}

// `maps` function source maps that all share one table, and so one
// locations vector of `locations` 8-byte entries.
Writer SharedSourceMapLocations(uint32_t maps, uint32_t locations) {
  Writer w;
  size_t db = ModuleWithDebugDatabase(w, /*location_table=*/false);
  size_t functions = w.U32(maps);
  std::vector<size_t> map_slots;
  for (uint32_t i = 0; i < maps; ++i) map_slots.push_back(w.U32(0));
  w.Link(db + 12, functions);
  size_t map_vtable = w.Vtable({4, 8}, 12);
  size_t map = w.Table(map_vtable, 2);
  for (size_t slot : map_slots) w.Link(slot, map);
  w.Link(map + 4, w.String("f"));
  size_t vector = w.U32(locations);
  for (uint32_t i = 0; i < locations; ++i) {
    w.U32(0);  // bytecode_offset
    w.U32(0);  // location
  }
  w.Link(map + 8, vector);
  return w;
}

// The parser copies the children of every fused location it visits. When
// many entries share one fused table, the copies must be charged to the
// budget, not the single vector: 1000 x 4000 children would otherwise be
// 16 MB of copies from a 21 KB file (and the copies are walked again at
// verification). The same vector, referenced once, is within the budget.
TEST(FlatBufferReader, SharedFusedChildrenHitTheBudget) {
  Writer once = SharedFusedLocation(1, 4000);
  Result<ModuleDef> def = ParseModuleDef(once.span());
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  ASSERT_EQ(def->debug_database->location_table.size(), 1u);
  EXPECT_EQ(std::get<FusedLoc>(def->debug_database->location_table[0])
                .locations.size(),
            4000u);

  Writer shared = SharedFusedLocation(1000, 4000);
  def = ParseModuleDef(shared.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("too many objects"), std::string::npos)
      << def.status().ToString();
  EXPECT_NE(def.status().ToString().find("location_table"), std::string::npos)
      << def.status().ToString();
}

// Likewise for source maps sharing one locations vector.
TEST(FlatBufferReader, SharedSourceMapLocationsHitTheBudget) {
  Writer once = SharedSourceMapLocations(1, 4000);
  Result<ModuleDef> def = ParseModuleDef(once.span());
  ASSERT_TRUE(def.ok()) << def.status().ToString();
  ASSERT_EQ(def->debug_database->functions.size(), 1u);
  EXPECT_EQ(def->debug_database->functions[0].locations.size(), 4000u);

  Writer shared = SharedSourceMapLocations(1000, 4000);
  def = ParseModuleDef(shared.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("too many objects"), std::string::npos)
      << def.status().ToString();
  EXPECT_NE(def.status().ToString().find("functions"), std::string::npos)
      << def.status().ToString();
}

TEST(FlatBufferReader, UnionVectorLengthMismatchIsRejected) {
  // debug_database (slot 15) whose location_table types and values differ in
  // length.
  Writer w;
  std::vector<uint16_t> fields(16, 0);
  fields[0] = 4;
  fields[15] = 8;
  size_t vtable = w.Vtable(fields, 12);
  size_t root = w.Table(vtable, 2);
  w.Link(0, root);
  w.Link(root + 4, w.String("m"));
  size_t db_vtable = w.Vtable({4, 8}, 12);
  size_t db = w.Table(db_vtable, 2);
  w.Link(root + 8, db);
  size_t types = w.U32(2);
  w.U32(0);  // two NONE type bytes (and padding)
  size_t values = w.U32(1);
  w.U32(0);
  w.Link(db + 4, types);
  w.Link(db + 8, values);
  Result<ModuleDef> def = ParseModuleDef(w.span());
  ASSERT_FALSE(def.ok());
  EXPECT_NE(def.status().ToString().find("union vector"), std::string::npos)
      << def.status().ToString();
}

}  // namespace
}  // namespace ember::vm::bytecode
