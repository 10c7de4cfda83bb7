//===- RSBStuffStatistics.h - The pass's -stats counters --------*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef RSBSTUFF_RSBSTUFFSTATISTICS_H
#define RSBSTUFF_RSBSTUFFSTATISTICS_H

#include "llvm/ADT/Statistic.h"

namespace rsbstuff {
extern llvm::TrackingStatistic NumInstrumented;
extern llvm::TrackingStatistic NumSkipped;
extern llvm::TrackingStatistic NumElided;
extern llvm::TrackingStatistic NumCallsRedirected;
extern llvm::TrackingStatistic NumCallsStackArguments;
extern llvm::TrackingStatistic NumReturnsLowered;
extern llvm::TrackingStatistic NumTailCallsRetargeted;
extern llvm::TrackingStatistic NumTailCallsAccounted;
extern llvm::TrackingStatistic NumResets;
extern llvm::TrackingStatistic NumCaps;
extern llvm::TrackingStatistic NumIndirectChecked;
extern llvm::TrackingStatistic NumSharedMarkChecks;
extern llvm::TrackingStatistic NumSharedIndirectCalls;
extern llvm::TrackingStatistic NumTableCalls;
extern llvm::TrackingStatistic NumColdReturnsShared;
extern llvm::TrackingStatistic NumColdReturnsToThunk;
extern llvm::TrackingStatistic NumColdIndirectCalls;
} // namespace rsbstuff

#endif // RSBSTUFF_RSBSTUFFSTATISTICS_H
