// Result forwarding (quickened_code.h): the last rewrite, over the otherwise
// finished copy.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ember::vm::bytecode::quicken {

// Rewrites each instruction of `code` (the quickened copy of `function`)
// that reads the result of the instruction right before it into its ...Acc
// form, where it has one. The final opcode byte of each instruction says
// whether its handler leaves its result in `acc` and which ...Acc forms it
// has.
void ForwardResults(std::span<const uint8_t> function,
                    std::vector<uint8_t>& code);

}  // namespace ember::vm::bytecode::quicken
