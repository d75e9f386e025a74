import ArgumentParser
import FetchKit
import FetchKitFuzz
import FetchKitPostgres
import FetchKitSQLite
import Foundation

/// `fetchkit-fuzz`: a seeded run of the predicate-format fuzzer (Fuzz/README.md). Exits non-zero on any failure.
@main
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetchkit-fuzz",
        abstract: "Fuzz the predicate format parser, predicateFormat, validation and the SQL compiler.")

    @Option(help: "How many inputs.")
    var count = 1_000_000

    @Option(help: "The seed: the same seed gives the same inputs.")
    var seed: UInt64 = 1

    @Option(help: "The index of the first input (to re-run part of a run).")
    var start = 0

    @Option(help: "An input taking longer than this many milliseconds is a failure.")
    var boundMilliseconds = 1_000

    @Option(help: "An input still running after this many seconds is reported as a hang and the run stops.")
    var hangSeconds = 30

    @Flag(help: "Print the inputs instead of checking them.")
    var show = false

    func run() throws {
        let fuzzer = PredicateFuzzer(
            seed: seed, count: count, start: start, dialects: [.sqlite, .postgres],
            timeBound: .milliseconds(boundMilliseconds))
        if show {
            for index in start..<(start + count) { print("#\(index) \(fuzzer.input(at: index).excerpt(limit: 2_000))") }
            return
        }
        let watch = InputWatch(hangSeconds: hangSeconds)
        watch.start()
        let report = fuzzer.run { index, input in watch.willCheck(index, input) }
        print(report)
        if !report.passed { throw ExitCode.failure }
    }
}
