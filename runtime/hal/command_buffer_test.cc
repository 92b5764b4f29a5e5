#include "runtime/hal/command_buffer.h"

#include <gtest/gtest.h>

#include "runtime/hal/allocator.h"

namespace ember::hal {
namespace {

class FakeExecutable final : public Executable {
 public:
  size_t export_count() const override { return 2; }
  ExportInfo export_info(size_t ordinal) const override {
    return {"export" + std::to_string(ordinal), 1, 2};
  }
};

class CommandBufferTest : public ::testing::Test {
 protected:
  Ref<Allocator> allocator_ = Allocator::CreateHeap();
  Ref<Buffer> Make(uint64_t size) {
    return *allocator_->Allocate(BufferParams{}, size);
  }
};

TEST_F(CommandBufferTest, ResolveDirectAndSlotReferences) {
  Ref<Buffer> buffer = Make(256);
  auto direct = ResolveBufferRef({buffer, 0, 16, 32}, {});
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->buffer, buffer.get());
  EXPECT_EQ(direct->offset, 16u);
  EXPECT_EQ(direct->length, 32u);
  EXPECT_EQ(ResolveBufferRef({buffer, 0, 250, 10}, {}).status().code(),
            StatusCode::kOutOfRange);

  // A slot with no table is "no buffer", not an error.
  auto none = ResolveBufferRef({nullptr, 3, 0, kWholeBuffer}, {});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->buffer);

  const Binding table[] = {{buffer, 64, 128}, {buffer, 0, kWholeBuffer}};
  auto slot = ResolveBufferRef({nullptr, 0, 16, kWholeBuffer}, table);
  ASSERT_TRUE(slot.ok());
  EXPECT_EQ(slot->offset, 80u);
  EXPECT_EQ(slot->length, 112u);
  auto whole = ResolveBufferRef({nullptr, 1, 8, kWholeBuffer}, table);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->length, 248u);
  // Past the entry's range (even though inside the buffer): OUT_OF_RANGE.
  EXPECT_EQ(ResolveBufferRef({nullptr, 0, 100, 29}, table).status().code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(ResolveBufferRef({nullptr, 2, 0, 4}, table).status().code(),
            StatusCode::kOutOfRange);
  const Binding bad_entry[] = {{buffer, 200, 100}};
  EXPECT_EQ(ResolveBufferRef({nullptr, 0, 0, 4}, bad_entry).status().code(),
            StatusCode::kOutOfRange);
}

TEST_F(CommandBufferTest, RecordingChecks) {
  auto created =
      CommandBuffer::Create(CommandBufferMode::kNone, CommandCategory::kAny, 2);
  ASSERT_TRUE(created.ok());
  Ref<CommandBuffer> cb = *created;
  Ref<Buffer> buffer = Make(64);

  EXPECT_TRUE(cb->Fill({{buffer, 0, 0, 16}, 0xAB, 1}).ok());
  EXPECT_EQ(cb->Fill({{buffer, 0, 0, 16}, 0, 3}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(cb->Fill({{buffer, 0, 2, 16}, 0, 4}).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(cb->Fill({{buffer, 0, 0, 128}, 0, 4}).code(),
            StatusCode::kOutOfRange);
  EXPECT_EQ(cb->Copy({{buffer, 0, 0, 0}, {buffer, 0, 8, 0}, 16}).code(),
            StatusCode::kInvalidArgument)
      << "overlapping copy";
  EXPECT_TRUE(cb->Copy({{buffer, 0, 0, 0}, {buffer, 0, 32, 0}, 16}).ok());
  EXPECT_EQ(cb->Copy({{nullptr, 2, 0, 0}, {buffer, 0, 32, 0}, 16}).code(),
            StatusCode::kOutOfRange)
      << "slot 2 is beyond the capacity of 2";
  EXPECT_TRUE(cb->Copy({{nullptr, 1, 0, 0}, {buffer, 0, 32, 0}, 16}).ok());
  EXPECT_EQ(cb->binding_count(), 2u);

  Ref<Executable> executable = Ref<Executable>::Adopt(new FakeExecutable());
  DispatchCommand dispatch;
  dispatch.executable = executable;
  dispatch.export_ordinal = 2;
  EXPECT_EQ(cb->Dispatch(dispatch).code(), StatusCode::kInvalidArgument);
  dispatch.export_ordinal = 1;
  dispatch.indirect = true;
  dispatch.workgroups_ref = {buffer, 0, 2, 12};
  EXPECT_EQ(cb->Dispatch(dispatch).code(), StatusCode::kInvalidArgument);
  dispatch.workgroups_ref = {buffer, 0, 4, 8};
  EXPECT_EQ(cb->Dispatch(dispatch).code(), StatusCode::kOutOfRange);
  dispatch.workgroups_ref = {buffer, 0, 4, 12};
  EXPECT_EQ(cb->Dispatch(dispatch).code(), StatusCode::kPermissionDenied)
      << "the counts buffer needs DISPATCH_INDIRECT_PARAMS usage";
  BufferParams indirect_params;
  indirect_params.usage = BufferUsage::kDispatchIndirectParameters;
  dispatch.workgroups_ref = {*allocator_->Allocate(indirect_params, 16), 0, 4,
                             12};
  EXPECT_TRUE(cb->Dispatch(dispatch).ok());

  EXPECT_EQ(cb->EndDebugGroup().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(cb->BeginDebugGroup("group").ok());
  EXPECT_EQ(cb->Finalize().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(cb->EndDebugGroup().ok());
  EXPECT_TRUE(cb->Finalize().ok());
  EXPECT_EQ(cb->ExecutionBarrier().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(cb->commands().size(), 6u);

  EXPECT_EQ(cb->ValidateBindingTable({}).code(), StatusCode::kInvalidArgument);
  const Binding short_table[] = {{buffer, 0, kWholeBuffer}};
  EXPECT_EQ(cb->ValidateBindingTable(short_table).code(),
            StatusCode::kOutOfRange);
  const Binding table[] = {{buffer, 0, kWholeBuffer}, {buffer, 0, 16}};
  EXPECT_TRUE(cb->ValidateBindingTable(table).ok());
}

TEST_F(CommandBufferTest, CategoriesAndUsageAreEnforced) {
  Ref<CommandBuffer> cb = *CommandBuffer::Create(CommandBufferMode::kOneShot,
                                                 CommandCategory::kDispatch, 0);
  Ref<Buffer> buffer = Make(64);
  EXPECT_EQ(cb->Fill({{buffer, 0, 0, 16}, 0, 1}).code(),
            StatusCode::kFailedPrecondition);
  Ref<CommandBuffer> transfer = *CommandBuffer::Create(
      CommandBufferMode::kOneShot, CommandCategory::kTransfer, 0);
  BufferParams no_target;
  no_target.usage = BufferUsage::kTransferSource;
  // Wrapped directly: the heap allocator would add transfer usage, as
  // IREE's does.
  alignas(64) static uint8_t storage[64];
  Ref<Buffer> source_only =
      Buffer::WrapAllocation(storage, 64, no_target, nullptr);
  EXPECT_EQ(transfer->Fill({{source_only, 0, 0, 16}, 0, 1}).code(),
            StatusCode::kPermissionDenied);
  UpdateCommand big;
  big.data.resize(CommandBuffer::kMaxUpdateBytes + 1);
  big.target = {buffer, 0, 0, 0};
  EXPECT_EQ(transfer->Update(std::move(big)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(CommandBuffer::Create(CommandBufferMode::kNone,
                                  CommandCategory::kAny, 1u << 20)
                .status()
                .code(),
            StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace ember::hal
