// SPDX-License-Identifier: Apache-2.0
// Window functions over a sorted partition. Frames are resolved to row ranges per row; an
// aggregate grows its state while consecutive frames only extend (running and whole-partition
// frames cost one pass, frames ending at UNBOUNDED FOLLOWING are walked backwards) and is
// recomputed for frames that slide.
#include "epoxy/exec/window_functions.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "epoxy/vector/compare.h"
#include "epoxy/expr/decimal.h"
#include "epoxy/vector/builder.h"
#include "epoxy/vector/take.h"

namespace epoxy::exec {
namespace {

using expr::Expr;
using expr::FrameBound;
using expr::WindowSpec;
using Kind = FrameBound::Kind;

struct Frame {
  bool rows = true;
  FrameBound start, end;
};

Frame ResolveFrame(const WindowSpec& w) {
  Frame f;
  if (w.units == WindowSpec::Units::kDefault) {
    // Spark's defaults: a running frame with ORDER BY, the whole partition without.
    f.rows = w.order_by.empty();
    f.start = {Kind::kUnboundedPreceding, 0};
    f.end = w.order_by.empty() ? FrameBound{Kind::kUnboundedFollowing, 0} : FrameBound{Kind::kCurrentRow, 0};
    return f;
  }
  f.rows = w.units == WindowSpec::Units::kRows;
  f.start = w.start;
  f.end = w.end;
  return f;
}

/// Rows [lo, hi] of each row's frame (lo > hi: empty).
class FrameBounds {
 public:
  FrameBounds(const Frame& frame, const WindowRows& rows) : frame_(frame), rows_(rows) {
    const bool by_value = !frame.rows && (frame.start.kind == Kind::kPreceding || frame.start.kind == Kind::kFollowing ||
                                          frame.end.kind == Kind::kPreceding || frame.end.kind == Kind::kFollowing);
    if (by_value) {
      keys_.resize(static_cast<size_t>(rows.num_rows));
      const Array& k = *rows.order_key;
      for (int64_t i = 0; i < rows.num_rows; ++i) keys_[static_cast<size_t>(i)] = KeyValue(k, i);
    }
  }

  void Of(int64_t i, int64_t* lo, int64_t* hi) const {
    const int64_t s = rows_.segment_start[static_cast<size_t>(i)], e = rows_.segment_end[static_cast<size_t>(i)];
    *lo = Bound(frame_.start, i, s, e, true);
    *hi = Bound(frame_.end, i, s, e, false);
    *lo = std::max(*lo, s);
    *hi = std::min(*hi, e - 1);
  }

 private:
  static double KeyValue(const Array& a, int64_t i) {
    if (a.IsNull(i)) return std::nan("");
    switch (a.type_id()) {
      case TypeId::kTinyInt: return a.values<int8_t>()[i];
      case TypeId::kSmallInt: return a.values<int16_t>()[i];
      case TypeId::kInt:
      case TypeId::kDate: return a.values<int32_t>()[i];
      case TypeId::kBigInt:
      case TypeId::kTimestamp: return static_cast<double>(a.values<int64_t>()[i]);
      case TypeId::kFloat: return a.values<float>()[i];
      case TypeId::kDouble: return a.values<double>()[i];
      case TypeId::kDecimal: {
        __int128 v;
        std::memcpy(&v, a.values<__int128>() + i, 16);
        return static_cast<double>(v) / std::pow(10.0, a.type()->scale());
      }
      default: return 0;
    }
  }

  int64_t Bound(const FrameBound& b, int64_t i, int64_t s, int64_t e, bool is_start) const {
    switch (b.kind) {
      case Kind::kUnboundedPreceding: return is_start ? s : s - 1;
      case Kind::kUnboundedFollowing: return is_start ? e : e - 1;
      case Kind::kCurrentRow:
        if (frame_.rows) return i;
        return is_start ? rows_.peer_start[static_cast<size_t>(i)] : rows_.peer_end[static_cast<size_t>(i)] - 1;
      case Kind::kPreceding:
      case Kind::kFollowing: {
        const int64_t k = b.kind == Kind::kPreceding ? -b.offset : b.offset;
        if (frame_.rows) return i + k;
        return ValueBound(i, s, e, k, is_start);
      }
    }
    return i;
  }

  /// RANGE with an offset: the first (start) or last (end) row whose ORDER BY value is within
  /// `delta` of row i's in the sort's direction. A null value's frame is its peers (the nulls).
  int64_t ValueBound(int64_t i, int64_t s, int64_t e, int64_t delta, bool is_start) const {
    const double v = keys_[static_cast<size_t>(i)];
    if (std::isnan(v)) {
      return is_start ? rows_.peer_start[static_cast<size_t>(i)] : rows_.peer_end[static_cast<size_t>(i)] - 1;
    }
    const double target = rows_.order_ascending ? v + static_cast<double>(delta) : v - static_cast<double>(delta);
    // Non-null keys of the segment are contiguous and sorted in the ORDER BY direction.
    auto before = [&](int64_t j) {  // row j lies before the target in sort order
      const double x = keys_[static_cast<size_t>(j)];
      if (std::isnan(x)) return rows_.order_key->IsNull(s);  // nulls at the segment's start sort first
      return rows_.order_ascending ? x < target : x > target;
    };
    auto at_or_before = [&](int64_t j) {
      const double x = keys_[static_cast<size_t>(j)];
      if (std::isnan(x)) return rows_.order_key->IsNull(s);
      return rows_.order_ascending ? x <= target : x >= target;
    };
    int64_t lo = s, hi = e;
    if (is_start) {  // the first row not before the target
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (before(mid)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    while (lo < hi) {  // the last row at or before the target
      const int64_t mid = lo + (hi - lo) / 2;
      if (at_or_before(mid)) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  Frame frame_;
  const WindowRows& rows_;
  std::vector<double> keys_;
};

Result<ArrayPtr> IntColumn(const std::vector<int32_t>& v, MemoryPool* pool) {
  Int32Builder b(DataType::Int(), pool);
  EPOXY_RETURN_NOT_OK(b.Reserve(static_cast<int64_t>(v.size())));
  for (int32_t x : v) EPOXY_RETURN_NOT_OK(b.Append(x));
  return b.Finish();
}

Result<ArrayPtr> DoubleColumn(const std::vector<double>& v, MemoryPool* pool) {
  DoubleBuilder b(DataType::Double(), pool);
  EPOXY_RETURN_NOT_OK(b.Reserve(static_cast<int64_t>(v.size())));
  for (double x : v) EPOXY_RETURN_NOT_OK(b.Append(x));
  return b.Finish();
}

Result<ArrayPtr> Ranking(const std::string& op, const Expr& call, const WindowRows& rows, MemoryPool* pool) {
  const int64_t n = rows.num_rows;
  if (op == "percent_rank" || op == "cume_dist") {
    std::vector<double> out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const int64_t s = rows.segment_start[static_cast<size_t>(i)];
      const double size = static_cast<double>(rows.segment_end[static_cast<size_t>(i)] - s);
      if (op == "percent_rank") {
        const double rank = static_cast<double>(rows.peer_start[static_cast<size_t>(i)] - s);
        out[static_cast<size_t>(i)] = size <= 1 ? 0 : rank / (size - 1);
      } else {
        out[static_cast<size_t>(i)] = static_cast<double>(rows.peer_end[static_cast<size_t>(i)] - s) / size;
      }
    }
    return DoubleColumn(out, pool);
  }
  std::vector<int32_t> out(static_cast<size_t>(n));
  const int64_t buckets = op == "ntile" ? std::get<int64_t>(call.args[0]->literal.value) : 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t s = rows.segment_start[static_cast<size_t>(i)];
    const int64_t r = i - s;
    int64_t v = 0;
    if (op == "row_number") {
      v = r + 1;
    } else if (op == "rank") {
      v = rows.peer_start[static_cast<size_t>(i)] - s + 1;
    } else if (op == "dense_rank") {
      v = i == s ? 1 : out[static_cast<size_t>(i - 1)] + (rows.peer_start[static_cast<size_t>(i)] == i ? 1 : 0);
    } else {  // ntile: the first (size % buckets) buckets hold one row more
      const int64_t size = rows.segment_end[static_cast<size_t>(i)] - s;
      const int64_t base = size / buckets, extra = size % buckets;
      const int64_t big = (base + 1) * extra;
      v = base == 0 ? r + 1 : r < big ? r / (base + 1) + 1 : extra + (r - big) / base + 1;
    }
    out[static_cast<size_t>(i)] = static_cast<int32_t>(v);
  }
  return IntColumn(out, pool);
}

/// lag / lead: the value `offset` rows before (after) in the segment, else the default.
Result<ArrayPtr> Offset(const Expr& call, const std::vector<ArrayPtr>& args, const WindowRows& rows, MemoryPool* pool) {
  int64_t offset = 1;
  if (call.args.size() >= 2 && !call.args[1]->literal.is_null()) offset = std::get<int64_t>(call.args[1]->literal.value);
  if (call.op == "lag") offset = -offset;
  std::vector<ArrayPtr> sources = {args[0]};
  if (args.size() >= 3) sources.push_back(args[2]);
  std::vector<RowRef> refs(static_cast<size_t>(rows.num_rows));
  for (int64_t i = 0; i < rows.num_rows; ++i) {
    const int64_t j = i + offset;
    const bool inside = j >= rows.segment_start[static_cast<size_t>(i)] && j < rows.segment_end[static_cast<size_t>(i)];
    if (inside) refs[static_cast<size_t>(i)] = MakeRowRef(0, static_cast<uint32_t>(j));
    else refs[static_cast<size_t>(i)] = sources.size() > 1 ? MakeRowRef(1, static_cast<uint32_t>(i)) : kNullRow;
  }
  return TakeFrom(sources, refs, call.type, pool);
}

/// first_value, last_value, nth_value over each row's frame.
Result<ArrayPtr> FramePick(const Expr& call, const Array& value, const ArrayPtr& column, const FrameBounds& bounds,
                           int64_t n, MemoryPool* pool) {
  const bool nth = call.op == "nth_value";
  const int64_t position = nth ? std::get<int64_t>(call.args[1]->literal.value) : 1;
  const size_t flag = nth ? 2 : 1;
  const bool ignore_nulls = call.args.size() > flag && !call.args[flag]->literal.is_null() &&
                            std::get<bool>(call.args[flag]->literal.value);
  const bool last = call.op == "last";
  std::vector<RowRef> refs(static_cast<size_t>(n), kNullRow);
  for (int64_t i = 0; i < n; ++i) {
    int64_t lo, hi;
    bounds.Of(i, &lo, &hi);
    int64_t seen = 0;
    if (last) {
      for (int64_t j = hi; j >= lo; --j) {
        if (ignore_nulls && value.IsNull(j)) continue;
        refs[static_cast<size_t>(i)] = MakeRowRef(0, static_cast<uint32_t>(j));
        break;
      }
      continue;
    }
    for (int64_t j = lo; j <= hi; ++j) {
      if (ignore_nulls && value.IsNull(j)) continue;
      if (++seen == position) {
        refs[static_cast<size_t>(i)] = MakeRowRef(0, static_cast<uint32_t>(j));
        break;
      }
    }
  }
  return TakeFrom({column}, refs, call.type, pool);
}

/// The running state of count, sum, avg, min or max over a range of rows.
class FrameAggregate {
 public:
  FrameAggregate(const Expr& call, const ArrayPtr& arg) : call_(call), op_(call.op), arg_(arg) {}

  void Reset() {
    count_ = 0;
    int_sum_ = 0;
    double_sum_ = 0;
    decimal_sum_ = 0;
    overflow_ = false;
    best_ = -1;
  }
  void Add(int64_t j) {
    if (arg_ == nullptr) {  // count(*)
      ++count_;
      return;
    }
    const Array& a = *arg_;
    if (a.type_id() == TypeId::kNull || a.IsNull(j)) return;
    ++count_;
    switch (a.type_id()) {
      case TypeId::kBigInt:
        int_sum_ = static_cast<int64_t>(static_cast<uint64_t>(int_sum_) + static_cast<uint64_t>(a.values<int64_t>()[j]));
        break;
      case TypeId::kDouble: double_sum_ += a.values<double>()[j]; break;
      case TypeId::kDecimal: {
        __int128 v;
        std::memcpy(&v, a.values<__int128>() + j, 16);
        if (__builtin_add_overflow(decimal_sum_, v, &decimal_sum_)) overflow_ = true;
        break;
      }
      default: break;
    }
    if (op_ == "min" || op_ == "max") {
      if (best_ < 0) {
        best_ = j;
      } else {
        const int c = CompareValues(a, j, a, best_);
        if (op_ == "min" ? c < 0 : c > 0) best_ = j;
      }
    }
  }
  /// Appends the current value to `out` (sums and counts) or gives the row holding it (min/max).
  Status Emit(ArrayBuilder* out, RowRef* pick) const {
    if (op_ == "count") return static_cast<Int64Builder*>(out)->Append(count_);
    if (op_ == "min" || op_ == "max") {
      *pick = best_ < 0 ? kNullRow : MakeRowRef(0, static_cast<uint32_t>(best_));
      return Status::OK();
    }
    if (count_ == 0) return out->AppendNull();
    const TypePtr& type = call_.type;
    const TypeId arg = arg_->type_id();
    if (op_ == "sum") {
      if (arg == TypeId::kBigInt) return static_cast<Int64Builder*>(out)->Append(int_sum_);
      if (arg == TypeId::kDouble) return static_cast<DoubleBuilder*>(out)->Append(double_sum_);
      __int128 v;
      if (overflow_ || !expr::RescaleDecimal(decimal_sum_, type->scale(), type->scale(), type->precision(), &v)) return out->AppendNull();
      return static_cast<DecimalBuilder*>(out)->Append(v);
    }
    // avg
    if (arg == TypeId::kDouble) return static_cast<DoubleBuilder*>(out)->Append(double_sum_ / static_cast<double>(count_));
    const TypePtr sum_type = expr::DecimalSumType(*arg_->type());
    __int128 v;
    if (overflow_ || !expr::DecimalAverage(decimal_sum_, *sum_type, count_, *type, &v)) return out->AppendNull();
    return static_cast<DecimalBuilder*>(out)->Append(v);
  }

 private:
  const Expr& call_;
  std::string op_;
  ArrayPtr arg_;
  int64_t count_ = 0, int_sum_ = 0;
  double double_sum_ = 0;
  __int128 decimal_sum_ = 0;
  bool overflow_ = false;
  int64_t best_ = -1;
};

Result<ArrayPtr> FrameAggregates(const Expr& call, const ArrayPtr& arg, const FrameBounds& bounds, const Frame& frame,
                                 int64_t n, MemoryPool* pool) {
  const std::string& op = call.op;
  if (op != "count" && op != "sum" && op != "avg" && op != "min" && op != "max") {
    return Status::NotSupported("{} over a window (epoxy computes count, sum, avg, min, max, first, last and nth_value over frames)", op);
  }
  const bool picks = op == "min" || op == "max";
  EPOXY_ASSIGN_OR_RETURN(auto builder, MakeBuilder(picks ? DataType::Null() : call.type, pool));
  std::vector<RowRef> picked(static_cast<size_t>(picks ? n : 0), kNullRow);
  FrameAggregate state(call, op == "count" && call.args.empty() ? nullptr : arg);
  // Frames ending at UNBOUNDED FOLLOWING shrink from the front as rows advance: walk backwards.
  const bool backwards = frame.end.kind == Kind::kUnboundedFollowing && frame.start.kind != Kind::kUnboundedPreceding;
  std::vector<int64_t> lo(static_cast<size_t>(n)), hi(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) bounds.Of(i, &lo[static_cast<size_t>(i)], &hi[static_cast<size_t>(i)]);
  int64_t cur_lo = 0, cur_hi = -1;
  bool have = false;
  auto fold = [&](int64_t i) {
    const int64_t l = lo[static_cast<size_t>(i)], h = hi[static_cast<size_t>(i)];
    if (l > h) {
      state.Reset();
      have = false;
      return;
    }
    if (have && !backwards && l == cur_lo && h >= cur_hi) {
      for (int64_t j = cur_hi + 1; j <= h; ++j) state.Add(j);
    } else if (have && backwards && h == cur_hi && l <= cur_lo) {
      for (int64_t j = l; j < cur_lo; ++j) state.Add(j);
    } else {
      state.Reset();
      for (int64_t j = l; j <= h; ++j) state.Add(j);
    }
    cur_lo = l;
    cur_hi = h;
    have = true;
  };
  if (!backwards) {
    for (int64_t i = 0; i < n; ++i) {
      fold(i);
      RowRef pick = kNullRow;
      if (!have) {
        if (op == "count") {
          EPOXY_RETURN_NOT_OK(static_cast<Int64Builder*>(builder.get())->Append(0));
        } else if (!picks) {
          EPOXY_RETURN_NOT_OK(builder->AppendNull());
        }
        continue;
      }
      EPOXY_RETURN_NOT_OK(state.Emit(builder.get(), &pick));
      if (picks) picked[static_cast<size_t>(i)] = pick;
    }
    if (picks) return TakeFrom({arg}, picked, call.type, pool);
    return builder->Finish();
  }
  // Backwards: values computed from the last row to the first, then put in row order.
  EPOXY_ASSIGN_OR_RETURN(auto reversed, MakeBuilder(picks ? DataType::Null() : call.type, pool));
  for (int64_t i = n - 1; i >= 0; --i) {
    fold(i);
    RowRef pick = kNullRow;
    if (!have) {
      if (op == "count") {
        EPOXY_RETURN_NOT_OK(static_cast<Int64Builder*>(reversed.get())->Append(0));
      } else if (!picks) {
        EPOXY_RETURN_NOT_OK(reversed->AppendNull());
      }
      continue;
    }
    EPOXY_RETURN_NOT_OK(state.Emit(reversed.get(), &pick));
    if (picks) picked[static_cast<size_t>(i)] = pick;
  }
  if (picks) return TakeFrom({arg}, picked, call.type, pool);
  EPOXY_ASSIGN_OR_RETURN(ArrayPtr backwards_values, reversed->Finish());
  std::vector<int32_t> flip(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) flip[static_cast<size_t>(i)] = static_cast<int32_t>(n - 1 - i);
  return Take(*backwards_values, flip, pool);
}

}  // namespace

Result<ArrayPtr> ComputeWindowFunction(const Expr& call, const std::vector<ArrayPtr>& args, const WindowRows& rows,
                                       MemoryPool* pool) {
  const std::string& op = call.op;
  if (op == "row_number" || op == "rank" || op == "dense_rank" || op == "percent_rank" || op == "cume_dist" || op == "ntile") {
    return Ranking(op, call, rows, pool);
  }
  if (op == "lag" || op == "lead") return Offset(call, args, rows, pool);
  const Frame frame = ResolveFrame(*call.window);
  FrameBounds bounds(frame, rows);
  if (op == "first" || op == "last" || op == "nth_value") {
    return FramePick(call, *args[0], args[0], bounds, rows.num_rows, pool);
  }
  return FrameAggregates(call, args.empty() ? nullptr : args[0], bounds, frame, rows.num_rows, pool);
}

}  // namespace epoxy::exec
