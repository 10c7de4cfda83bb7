//===- RSBStuffStatistics.cpp - The pass's -stats counters ----------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Debian's LLVM is a release build: STATISTIC counters are compiled out and
// its registry never prints. The plugin's counters are always enabled and
// printed at exit under -stats, in LLVM's format.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

#define DEBUG_TYPE "x86-rsb-stuff"

namespace rsbstuff {
TrackingStatistic NumInstrumented = {DEBUG_TYPE, "NumInstrumented",
                                     "Functions given an accounting prefix"};
TrackingStatistic NumSkipped = {DEBUG_TYPE, "NumSkipped",
                                "Functions left without a prefix"};
TrackingStatistic NumElided = {
    DEBUG_TYPE, "NumElided",
    "Functions whose call subtree fits the spare entries"};
TrackingStatistic NumCallsRedirected = {
    DEBUG_TYPE, "NumCallsRedirected",
    "Direct calls sent to an accounting entry"};
TrackingStatistic NumCallsStackArguments = {
    DEBUG_TYPE, "NumCallsStackArguments",
    "Calls and tail calls by name left plain: a call of the callee passes "
    "stack arguments"};
TrackingStatistic NumReturnsLowered = {
    DEBUG_TYPE, "NumReturnsLowered",
    "Returns accounted (in place or by the thunk)"};
TrackingStatistic NumTailCallsRetargeted = {
    DEBUG_TYPE, "NumTailCallsRetargeted", "Tail calls sent to a tail alias"};
TrackingStatistic NumTailCallsAccounted = {
    DEBUG_TYPE, "NumTailCallsAccounted",
    "Tail calls preceded by return accounting"};
TrackingStatistic NumResets = {
    DEBUG_TYPE, "NumResets",
    "Credit resets after unseen code and at landing pads"};
TrackingStatistic NumCaps = {
    DEBUG_TYPE, "NumCaps",
    "Credit caps after calls into the C library's bounded functions"};
TrackingStatistic NumIndirectChecked = {
    DEBUG_TYPE, "NumIndirectChecked",
    "Indirect calls and tail calls checked for the prefix mark"};
TrackingStatistic NumSharedMarkChecks = {
    DEBUG_TYPE, "NumSharedMarkChecks",
    "Indirect calls checked by the runtime's shared mark check"};
TrackingStatistic NumSharedIndirectCalls = {
    DEBUG_TYPE, "NumSharedIndirectCalls",
    "Indirect calls made by the runtime's shared mark check"};
TrackingStatistic NumTableCalls = {
    DEBUG_TYPE, "NumTableCalls",
    "Indirect calls through a constant table of instrumented functions"};
TrackingStatistic NumColdReturnsShared = {
    DEBUG_TYPE, "NumColdReturnsShared",
    "Cold returns sent to their function's in-place check"};
TrackingStatistic NumColdReturnsToThunk = {
    DEBUG_TYPE, "NumColdReturnsToThunk",
    "Cold returns sent to the return thunk"};
TrackingStatistic NumColdIndirectCalls = {
    DEBUG_TYPE, "NumColdIndirectCalls",
    "Cold indirect calls left unchecked (uncounted, reset)"};
} // namespace rsbstuff

namespace {
struct StatisticsAtExit {
  ~StatisticsAtExit() {
    using namespace rsbstuff;
    if (!AreStatisticsEnabled())
      return;
    const TrackingStatistic *All[] = {&NumInstrumented,
                                      &NumSkipped,
                                      &NumElided,
                                      &NumCallsRedirected,
                                      &NumCallsStackArguments,
                                      &NumReturnsLowered,
                                      &NumTailCallsRetargeted,
                                      &NumTailCallsAccounted,
                                      &NumResets,
                                      &NumCaps,
                                      &NumIndirectChecked,
                                      &NumSharedMarkChecks,
                                      &NumSharedIndirectCalls,
                                      &NumTableCalls,
                                      &NumColdReturnsShared,
                                      &NumColdReturnsToThunk,
                                      &NumColdIndirectCalls};
    raw_ostream &OS = errs();
    OS << "===" << std::string(73, '-') << "===\n"
       << "                     ... rsb-stuff Statistics Collected ...\n"
       << "===" << std::string(73, '-') << "===\n\n";
    for (const TrackingStatistic *Stat : All)
      if (Stat->getValue())
        OS << format("%5u %s - %s\n", unsigned(Stat->getValue()),
                     Stat->getDebugType(), Stat->getDesc());
    OS << "\n";
  }
} PrintStatisticsAtExit;
} // namespace
