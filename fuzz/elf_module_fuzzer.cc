// libFuzzer target for the embedded ELF loader: header, segment and dynamic
// table validation, mapping, relocation and protection, then symbol lookup.
// It never runs code from the input (no initializers, no library query).
// The seeds are compiled modules (fuzz/make_seed_corpus.sh): an input that is
// not itself an ELF is fuzzed from its first ELF magic on, so the ELFs inside
// .embedded.vmfb files become the real seeds.
#include <string.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "runtime/hal/cpu/elf_module.h"

constexpr char kElfMagic[4] = {0x7f, 'E', 'L', 'F'};

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> input(data, size);
  if (size >= 4 && std::memcmp(data, kElfMagic, 4) != 0) {
    const void* magic = memmem(data, size, kElfMagic, 4);
    if (magic != nullptr) {
      input = input.subspan(static_cast<const uint8_t*>(magic) - data);
    }
  }
  auto module = ember::hal::cpu::ElfModule::Load(input);
  if (!module.ok()) {
    // An error must always explain itself.
    if (module.status().message().empty()) __builtin_trap();
  } else {
    (void)(*module)->LookupSymbol("iree_hal_executable_library_query");
    (void)(*module)->LookupSymbol("");
  }

  // The aarch64 arithmetic cannot run through Load on this host: apply the
  // input's tail as a relocation table to a copy of its head.
  size_t split = input.size() / 2;
  std::vector<uint8_t> image(input.begin(), input.begin() + split);
  ember::hal::cpu::RelocationTarget target;
  target.image = image;
  target.image_vaddr = 0x1000;
  target.load_address = 0x7f0000000000;
  target.symbols = input.subspan(0, split - split % 24);
  std::span<const uint8_t> table = input.subspan(split);
  table = table.subspan(0, table.size() - table.size() % 24);
  (void)ember::hal::cpu::ApplyAArch64Relocations(target, table);
  (void)ember::hal::cpu::ApplyX86_64Relocations(target, table);
  return 0;
}
