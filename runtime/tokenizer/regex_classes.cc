// The character classes of Oniguruma (the regex engine `tokenizers` runs
// patterns from a tokenizer.json with) as PCRE2 class bodies: `\\s`, and
// `\\p{X}` for each general category. Oniguruma's Unicode data is newer
// than PCRE2 10.42's (Unicode 14), and one category (Mn) lost members
// since, so each class is PCRE2's own plus what Oniguruma adds, or, for Mn,
// written out in full; `\\s` is Unicode White_Space, written out (PCRE2's
// lacks U+0085 and has U+180E). See docs/tokenizer.md "Regexes".
//
// Measured, not copied: every code point was run through a `tokenizers`
// 0.23 Split pre-tokenizer with each class and through PCRE2, and the
// differences recorded; tests/python/test_tokenizer.py re-checks them.
#include <string_view>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

struct ClassBody {
  std::string_view name;
  std::string_view body;
};

constexpr ClassBody kClasses[] = {
    {"L",
     "\\p{L}\\x{1C89}-\\x{1C8A}\\x{A7CB}-\\x{A7CD}\\x{A7DA}-\\x{A7DC}"
     "\\x{105C0}-\\x{105F3}\\x{10D4A}-\\x{10D65}\\x{10D6F}-\\x{10D85}"
     "\\x{10EC2}-\\x{10EC4}\\x{1123F}-\\x{11240}\\x{11380}-\\x{11389}"
     "\\x{1138B}\\x{1138E}\\x{11390}-\\x{113B5}\\x{113B7}\\x{113D1}"
     "\\x{113D3}\\x{11BC0}-\\x{11BE0}\\x{11F02}\\x{11F04}-\\x{11F10}"
     "\\x{11F12}-\\x{11F33}\\x{1342F}\\x{13441}-\\x{13446}"
     "\\x{13460}-\\x{143FA}\\x{16100}-\\x{1611D}\\x{16D40}-\\x{16D6C}"
     "\\x{18CFF}\\x{1B132}\\x{1B155}\\x{1DF25}-\\x{1DF2A}"
     "\\x{1E030}-\\x{1E06D}\\x{1E4D0}-\\x{1E4EB}\\x{1E5D0}-\\x{1E5ED}"
     "\\x{1E5F0}\\x{2B739}\\x{2EBF0}-\\x{2EE5D}\\x{31350}-\\x{323AF}"},
    {"Lu",
     "\\p{Lu}\\x{1C89}\\x{A7CB}-\\x{A7CC}\\x{A7DA}\\x{A7DC}"
     "\\x{10D50}-\\x{10D65}"},
    {"Ll",
     "\\p{Ll}\\x{1C8A}\\x{A7CD}\\x{A7DB}\\x{10D70}-\\x{10D85}"
     "\\x{1DF25}-\\x{1DF2A}"},
    {"Lt", "\\p{Lt}"},
    {"Lm",
     "\\p{Lm}\\x{10D4E}\\x{10D6F}\\x{16D40}-\\x{16D42}"
     "\\x{16D6B}-\\x{16D6C}\\x{1E030}-\\x{1E06D}\\x{1E4EB}"},
    {"Lo",
     "\\p{Lo}\\x{105C0}-\\x{105F3}\\x{10D4A}-\\x{10D4D}\\x{10D4F}"
     "\\x{10EC2}-\\x{10EC4}\\x{1123F}-\\x{11240}\\x{11380}-\\x{11389}"
     "\\x{1138B}\\x{1138E}\\x{11390}-\\x{113B5}\\x{113B7}\\x{113D1}"
     "\\x{113D3}\\x{11BC0}-\\x{11BE0}\\x{11F02}\\x{11F04}-\\x{11F10}"
     "\\x{11F12}-\\x{11F33}\\x{1342F}\\x{13441}-\\x{13446}"
     "\\x{13460}-\\x{143FA}\\x{16100}-\\x{1611D}\\x{16D43}-\\x{16D6A}"
     "\\x{18CFF}\\x{1B132}\\x{1B155}\\x{1E4D0}-\\x{1E4EA}"
     "\\x{1E5D0}-\\x{1E5ED}\\x{1E5F0}\\x{2B739}\\x{2EBF0}-\\x{2EE5D}"
     "\\x{31350}-\\x{323AF}"},
    {"M",
     "\\p{M}\\x{897}\\x{CF3}\\x{ECE}\\x{10D69}-\\x{10D6D}"
     "\\x{10EFC}-\\x{10EFF}\\x{11241}\\x{113B8}-\\x{113C0}\\x{113C2}"
     "\\x{113C5}\\x{113C7}-\\x{113CA}\\x{113CC}-\\x{113D0}\\x{113D2}"
     "\\x{113E1}-\\x{113E2}\\x{11F00}-\\x{11F01}\\x{11F03}"
     "\\x{11F34}-\\x{11F3A}\\x{11F3E}-\\x{11F42}\\x{11F5A}\\x{13440}"
     "\\x{13447}-\\x{13455}\\x{1611E}-\\x{1612F}\\x{1E08F}"
     "\\x{1E4EC}-\\x{1E4EF}\\x{1E5EE}-\\x{1E5EF}"},
    {"Mn",
     "\\x{300}-\\x{36F}\\x{483}-\\x{487}\\x{591}-\\x{5BD}\\x{5BF}"
     "\\x{5C1}-\\x{5C2}\\x{5C4}-\\x{5C5}\\x{5C7}\\x{610}-\\x{61A}"
     "\\x{64B}-\\x{65F}\\x{670}\\x{6D6}-\\x{6DC}\\x{6DF}-\\x{6E4}"
     "\\x{6E7}-\\x{6E8}\\x{6EA}-\\x{6ED}\\x{711}\\x{730}-\\x{74A}"
     "\\x{7A6}-\\x{7B0}\\x{7EB}-\\x{7F3}\\x{7FD}\\x{816}-\\x{819}"
     "\\x{81B}-\\x{823}\\x{825}-\\x{827}\\x{829}-\\x{82D}"
     "\\x{859}-\\x{85B}\\x{897}-\\x{89F}\\x{8CA}-\\x{8E1}"
     "\\x{8E3}-\\x{902}\\x{93A}\\x{93C}\\x{941}-\\x{948}\\x{94D}"
     "\\x{951}-\\x{957}\\x{962}-\\x{963}\\x{981}\\x{9BC}"
     "\\x{9C1}-\\x{9C4}\\x{9CD}\\x{9E2}-\\x{9E3}\\x{9FE}"
     "\\x{A01}-\\x{A02}\\x{A3C}\\x{A41}-\\x{A42}\\x{A47}-\\x{A48}"
     "\\x{A4B}-\\x{A4D}\\x{A51}\\x{A70}-\\x{A71}\\x{A75}"
     "\\x{A81}-\\x{A82}\\x{ABC}\\x{AC1}-\\x{AC5}\\x{AC7}-\\x{AC8}"
     "\\x{ACD}\\x{AE2}-\\x{AE3}\\x{AFA}-\\x{AFF}\\x{B01}\\x{B3C}\\x{B3F}"
     "\\x{B41}-\\x{B44}\\x{B4D}\\x{B55}-\\x{B56}\\x{B62}-\\x{B63}"
     "\\x{B82}\\x{BC0}\\x{BCD}\\x{C00}\\x{C04}\\x{C3C}\\x{C3E}-\\x{C40}"
     "\\x{C46}-\\x{C48}\\x{C4A}-\\x{C4D}\\x{C55}-\\x{C56}"
     "\\x{C62}-\\x{C63}\\x{C81}\\x{CBC}\\x{CBF}\\x{CC6}\\x{CCC}-\\x{CCD}"
     "\\x{CE2}-\\x{CE3}\\x{D00}-\\x{D01}\\x{D3B}-\\x{D3C}"
     "\\x{D41}-\\x{D44}\\x{D4D}\\x{D62}-\\x{D63}\\x{D81}\\x{DCA}"
     "\\x{DD2}-\\x{DD4}\\x{DD6}\\x{E31}\\x{E34}-\\x{E3A}"
     "\\x{E47}-\\x{E4E}\\x{EB1}\\x{EB4}-\\x{EBC}\\x{EC8}-\\x{ECE}"
     "\\x{F18}-\\x{F19}\\x{F35}\\x{F37}\\x{F39}\\x{F71}-\\x{F7E}"
     "\\x{F80}-\\x{F84}\\x{F86}-\\x{F87}\\x{F8D}-\\x{F97}"
     "\\x{F99}-\\x{FBC}\\x{FC6}\\x{102D}-\\x{1030}\\x{1032}-\\x{1037}"
     "\\x{1039}-\\x{103A}\\x{103D}-\\x{103E}\\x{1058}-\\x{1059}"
     "\\x{105E}-\\x{1060}\\x{1071}-\\x{1074}\\x{1082}\\x{1085}-\\x{1086}"
     "\\x{108D}\\x{109D}\\x{135D}-\\x{135F}\\x{1712}-\\x{1714}"
     "\\x{1732}-\\x{1733}\\x{1752}-\\x{1753}\\x{1772}-\\x{1773}"
     "\\x{17B4}-\\x{17B5}\\x{17B7}-\\x{17BD}\\x{17C6}\\x{17C9}-\\x{17D3}"
     "\\x{17DD}\\x{180B}-\\x{180D}\\x{180F}\\x{1885}-\\x{1886}\\x{18A9}"
     "\\x{1920}-\\x{1922}\\x{1927}-\\x{1928}\\x{1932}\\x{1939}-\\x{193B}"
     "\\x{1A17}-\\x{1A18}\\x{1A1B}\\x{1A56}\\x{1A58}-\\x{1A5E}\\x{1A60}"
     "\\x{1A62}\\x{1A65}-\\x{1A6C}\\x{1A73}-\\x{1A7C}\\x{1A7F}"
     "\\x{1AB0}-\\x{1ABD}\\x{1ABF}-\\x{1ACE}\\x{1B00}-\\x{1B03}\\x{1B34}"
     "\\x{1B36}-\\x{1B3A}\\x{1B3C}\\x{1B42}\\x{1B6B}-\\x{1B73}"
     "\\x{1B80}-\\x{1B81}\\x{1BA2}-\\x{1BA5}\\x{1BA8}-\\x{1BA9}"
     "\\x{1BAB}-\\x{1BAD}\\x{1BE6}\\x{1BE8}-\\x{1BE9}\\x{1BED}"
     "\\x{1BEF}-\\x{1BF1}\\x{1C2C}-\\x{1C33}\\x{1C36}-\\x{1C37}"
     "\\x{1CD0}-\\x{1CD2}\\x{1CD4}-\\x{1CE0}\\x{1CE2}-\\x{1CE8}\\x{1CED}"
     "\\x{1CF4}\\x{1CF8}-\\x{1CF9}\\x{1DC0}-\\x{1DFF}\\x{20D0}-\\x{20DC}"
     "\\x{20E1}\\x{20E5}-\\x{20F0}\\x{2CEF}-\\x{2CF1}\\x{2D7F}"
     "\\x{2DE0}-\\x{2DFF}\\x{302A}-\\x{302D}\\x{3099}-\\x{309A}\\x{A66F}"
     "\\x{A674}-\\x{A67D}\\x{A69E}-\\x{A69F}\\x{A6F0}-\\x{A6F1}\\x{A802}"
     "\\x{A806}\\x{A80B}\\x{A825}-\\x{A826}\\x{A82C}\\x{A8C4}-\\x{A8C5}"
     "\\x{A8E0}-\\x{A8F1}\\x{A8FF}\\x{A926}-\\x{A92D}\\x{A947}-\\x{A951}"
     "\\x{A980}-\\x{A982}\\x{A9B3}\\x{A9B6}-\\x{A9B9}\\x{A9BC}-\\x{A9BD}"
     "\\x{A9E5}\\x{AA29}-\\x{AA2E}\\x{AA31}-\\x{AA32}\\x{AA35}-\\x{AA36}"
     "\\x{AA43}\\x{AA4C}\\x{AA7C}\\x{AAB0}\\x{AAB2}-\\x{AAB4}"
     "\\x{AAB7}-\\x{AAB8}\\x{AABE}-\\x{AABF}\\x{AAC1}\\x{AAEC}-\\x{AAED}"
     "\\x{AAF6}\\x{ABE5}\\x{ABE8}\\x{ABED}\\x{FB1E}\\x{FE00}-\\x{FE0F}"
     "\\x{FE20}-\\x{FE2F}\\x{101FD}\\x{102E0}\\x{10376}-\\x{1037A}"
     "\\x{10A01}-\\x{10A03}\\x{10A05}-\\x{10A06}\\x{10A0C}-\\x{10A0F}"
     "\\x{10A38}-\\x{10A3A}\\x{10A3F}\\x{10AE5}-\\x{10AE6}"
     "\\x{10D24}-\\x{10D27}\\x{10D69}-\\x{10D6D}\\x{10EAB}-\\x{10EAC}"
     "\\x{10EFC}-\\x{10EFF}\\x{10F46}-\\x{10F50}\\x{10F82}-\\x{10F85}"
     "\\x{11001}\\x{11038}-\\x{11046}\\x{11070}\\x{11073}-\\x{11074}"
     "\\x{1107F}-\\x{11081}\\x{110B3}-\\x{110B6}\\x{110B9}-\\x{110BA}"
     "\\x{110C2}\\x{11100}-\\x{11102}\\x{11127}-\\x{1112B}"
     "\\x{1112D}-\\x{11134}\\x{11173}\\x{11180}-\\x{11181}"
     "\\x{111B6}-\\x{111BE}\\x{111C9}-\\x{111CC}\\x{111CF}"
     "\\x{1122F}-\\x{11231}\\x{11234}\\x{11236}-\\x{11237}\\x{1123E}"
     "\\x{11241}\\x{112DF}\\x{112E3}-\\x{112EA}\\x{11300}-\\x{11301}"
     "\\x{1133B}-\\x{1133C}\\x{11340}\\x{11366}-\\x{1136C}"
     "\\x{11370}-\\x{11374}\\x{113BB}-\\x{113C0}\\x{113CE}\\x{113D0}"
     "\\x{113D2}\\x{113E1}-\\x{113E2}\\x{11438}-\\x{1143F}"
     "\\x{11442}-\\x{11444}\\x{11446}\\x{1145E}\\x{114B3}-\\x{114B8}"
     "\\x{114BA}\\x{114BF}-\\x{114C0}\\x{114C2}-\\x{114C3}"
     "\\x{115B2}-\\x{115B5}\\x{115BC}-\\x{115BD}\\x{115BF}-\\x{115C0}"
     "\\x{115DC}-\\x{115DD}\\x{11633}-\\x{1163A}\\x{1163D}"
     "\\x{1163F}-\\x{11640}\\x{116AB}\\x{116AD}\\x{116B0}-\\x{116B5}"
     "\\x{116B7}\\x{1171D}\\x{1171F}\\x{11722}-\\x{11725}"
     "\\x{11727}-\\x{1172B}\\x{1182F}-\\x{11837}\\x{11839}-\\x{1183A}"
     "\\x{1193B}-\\x{1193C}\\x{1193E}\\x{11943}\\x{119D4}-\\x{119D7}"
     "\\x{119DA}-\\x{119DB}\\x{119E0}\\x{11A01}-\\x{11A0A}"
     "\\x{11A33}-\\x{11A38}\\x{11A3B}-\\x{11A3E}\\x{11A47}"
     "\\x{11A51}-\\x{11A56}\\x{11A59}-\\x{11A5B}\\x{11A8A}-\\x{11A96}"
     "\\x{11A98}-\\x{11A99}\\x{11C30}-\\x{11C36}\\x{11C38}-\\x{11C3D}"
     "\\x{11C3F}\\x{11C92}-\\x{11CA7}\\x{11CAA}-\\x{11CB0}"
     "\\x{11CB2}-\\x{11CB3}\\x{11CB5}-\\x{11CB6}\\x{11D31}-\\x{11D36}"
     "\\x{11D3A}\\x{11D3C}-\\x{11D3D}\\x{11D3F}-\\x{11D45}\\x{11D47}"
     "\\x{11D90}-\\x{11D91}\\x{11D95}\\x{11D97}\\x{11EF3}-\\x{11EF4}"
     "\\x{11F00}-\\x{11F01}\\x{11F36}-\\x{11F3A}\\x{11F40}\\x{11F42}"
     "\\x{11F5A}\\x{13440}\\x{13447}-\\x{13455}\\x{1611E}-\\x{16129}"
     "\\x{1612D}-\\x{1612F}\\x{16AF0}-\\x{16AF4}\\x{16B30}-\\x{16B36}"
     "\\x{16F4F}\\x{16F8F}-\\x{16F92}\\x{16FE4}\\x{1BC9D}-\\x{1BC9E}"
     "\\x{1CF00}-\\x{1CF2D}\\x{1CF30}-\\x{1CF46}\\x{1D167}-\\x{1D169}"
     "\\x{1D17B}-\\x{1D182}\\x{1D185}-\\x{1D18B}\\x{1D1AA}-\\x{1D1AD}"
     "\\x{1D242}-\\x{1D244}\\x{1DA00}-\\x{1DA36}\\x{1DA3B}-\\x{1DA6C}"
     "\\x{1DA75}\\x{1DA84}\\x{1DA9B}-\\x{1DA9F}\\x{1DAA1}-\\x{1DAAF}"
     "\\x{1E000}-\\x{1E006}\\x{1E008}-\\x{1E018}\\x{1E01B}-\\x{1E021}"
     "\\x{1E023}-\\x{1E024}\\x{1E026}-\\x{1E02A}\\x{1E08F}"
     "\\x{1E130}-\\x{1E136}\\x{1E2AE}\\x{1E2EC}-\\x{1E2EF}"
     "\\x{1E4EC}-\\x{1E4EF}\\x{1E5EE}-\\x{1E5EF}\\x{1E8D0}-\\x{1E8D6}"
     "\\x{1E944}-\\x{1E94A}\\x{E0100}-\\x{E01EF}"},
    {"Mc",
     "\\p{Mc}\\x{CF3}\\x{113B8}-\\x{113BA}\\x{113C2}\\x{113C5}"
     "\\x{113C7}-\\x{113CA}\\x{113CC}-\\x{113CD}\\x{113CF}\\x{1171E}"
     "\\x{11F03}\\x{11F34}-\\x{11F35}\\x{11F3E}-\\x{11F3F}\\x{11F41}"
     "\\x{1612A}-\\x{1612C}"},
    {"Me", "\\p{Me}"},
    {"N",
     "\\p{N}\\x{10D40}-\\x{10D49}\\x{116D0}-\\x{116E3}"
     "\\x{11BF0}-\\x{11BF9}\\x{11F50}-\\x{11F59}\\x{16130}-\\x{16139}"
     "\\x{16D70}-\\x{16D79}\\x{1CCF0}-\\x{1CCF9}\\x{1D2C0}-\\x{1D2D3}"
     "\\x{1E4F0}-\\x{1E4F9}\\x{1E5F1}-\\x{1E5FA}"},
    {"Nd",
     "\\p{Nd}\\x{10D40}-\\x{10D49}\\x{116D0}-\\x{116E3}"
     "\\x{11BF0}-\\x{11BF9}\\x{11F50}-\\x{11F59}\\x{16130}-\\x{16139}"
     "\\x{16D70}-\\x{16D79}\\x{1CCF0}-\\x{1CCF9}\\x{1E4F0}-\\x{1E4F9}"
     "\\x{1E5F1}-\\x{1E5FA}"},
    {"Nl", "\\p{Nl}"},
    {"No", "\\p{No}\\x{1D2C0}-\\x{1D2D3}"},
    {"P",
     "\\p{P}\\x{1B4E}-\\x{1B4F}\\x{1B7F}\\x{10D6E}\\x{113D4}-\\x{113D5}"
     "\\x{113D7}-\\x{113D8}\\x{11B00}-\\x{11B09}\\x{11BE1}"
     "\\x{11F43}-\\x{11F4F}\\x{16D6D}-\\x{16D6F}\\x{1E5FF}"},
    {"Pc", "\\p{Pc}"},
    {"Pd", "\\p{Pd}\\x{10D6E}"},
    {"Ps", "\\p{Ps}"},
    {"Pe", "\\p{Pe}"},
    {"Pi", "\\p{Pi}"},
    {"Pf", "\\p{Pf}"},
    {"Po",
     "\\p{Po}\\x{1B4E}-\\x{1B4F}\\x{1B7F}\\x{113D4}-\\x{113D5}"
     "\\x{113D7}-\\x{113D8}\\x{11B00}-\\x{11B09}\\x{11BE1}"
     "\\x{11F43}-\\x{11F4F}\\x{16D6D}-\\x{16D6F}\\x{1E5FF}"},
    {"S",
     "\\p{S}\\x{2427}-\\x{2429}\\x{2FFC}-\\x{2FFF}\\x{31E4}-\\x{31E5}"
     "\\x{31EF}\\x{10D8E}-\\x{10D8F}\\x{1CC00}-\\x{1CCEF}"
     "\\x{1CD00}-\\x{1CEB3}\\x{1F6DC}\\x{1F774}-\\x{1F776}"
     "\\x{1F77B}-\\x{1F77F}\\x{1F7D9}\\x{1F8B2}-\\x{1F8BB}"
     "\\x{1F8C0}-\\x{1F8C1}\\x{1FA75}-\\x{1FA77}\\x{1FA87}-\\x{1FA89}"
     "\\x{1FA8F}\\x{1FAAD}-\\x{1FAAF}\\x{1FABB}-\\x{1FABF}\\x{1FAC6}"
     "\\x{1FACE}-\\x{1FACF}\\x{1FADA}-\\x{1FADC}\\x{1FADF}"
     "\\x{1FAE8}-\\x{1FAE9}\\x{1FAF7}-\\x{1FAF8}\\x{1FBCB}-\\x{1FBEF}"},
    {"Sm", "\\p{Sm}\\x{10D8E}-\\x{10D8F}"},
    {"Sc", "\\p{Sc}"},
    {"Sk", "\\p{Sk}"},
    {"So",
     "\\p{So}\\x{2427}-\\x{2429}\\x{2FFC}-\\x{2FFF}\\x{31E4}-\\x{31E5}"
     "\\x{31EF}\\x{1CC00}-\\x{1CCEF}\\x{1CD00}-\\x{1CEB3}\\x{1F6DC}"
     "\\x{1F774}-\\x{1F776}\\x{1F77B}-\\x{1F77F}\\x{1F7D9}"
     "\\x{1F8B2}-\\x{1F8BB}\\x{1F8C0}-\\x{1F8C1}\\x{1FA75}-\\x{1FA77}"
     "\\x{1FA87}-\\x{1FA89}\\x{1FA8F}\\x{1FAAD}-\\x{1FAAF}"
     "\\x{1FABB}-\\x{1FABF}\\x{1FAC6}\\x{1FACE}-\\x{1FACF}"
     "\\x{1FADA}-\\x{1FADC}\\x{1FADF}\\x{1FAE8}-\\x{1FAE9}"
     "\\x{1FAF7}-\\x{1FAF8}\\x{1FBCB}-\\x{1FBEF}"},
    {"Z", "\\p{Z}"},
    {"Zs", "\\p{Zs}"},
    {"Zl", "\\p{Zl}"},
    {"Zp", "\\p{Zp}"},
    {"s",
     "\\x{9}-\\x{D}\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}"
     "\\x{2028}-\\x{2029}\\x{202F}\\x{205F}\\x{3000}"},
};

}  // namespace

std::optional<std::string_view> OnigurumaClassBody(std::string_view name) {
  for (const ClassBody& c : kClasses) {
    if (c.name == name) return c.body;
  }
  return std::nullopt;
}

}  // namespace ember::tokenizer
