import FetchKit
import FetchKitFuzz
import FetchKitPostgres
import FetchKitSQLite
import Testing

@Suite("Predicate format fuzzer")
struct PredicateFuzzTests {
    /// A few thousand inputs of the fuzzer's engine with a fixed seed: the parser neither traps nor hangs, every
    /// accepted predicate round-trips through predicateFormat, and every one that validates compiles (or throws)
    /// for SQLite and PostgreSQL. A longer run: `fetchkit-fuzz` (CONTRIBUTING.md, Fuzz/README.md).
    @Test func seededRunFindsNoFailure() {
        let report = PredicateFuzzer(
            seed: 20_261_201, count: 3_000, dialects: [.sqlite, .postgres],
            timeBound: .seconds(5)
        ).run()
        #expect(report.passed, "\(report)")
        #expect(report.accepted > report.inputs / 10, "\(report)")
        #expect(report.compiled > 0, "\(report)")
    }

    @Test func inputsReproduceFromTheSeedAndIndex() {
        let fuzzer = PredicateFuzzer(seed: 7, count: 1, dialects: [])
        for index in [0, 1, 999, 123_456] {
            let first = fuzzer.input(at: index)
            let second = fuzzer.input(at: index)
            #expect(first.format == second.format)
            #expect(first.arguments.map { String(reflecting: $0) } == second.arguments.map { String(reflecting: $0) })
        }
        #expect(fuzzer.input(at: 0).format != fuzzer.input(at: 1).format)
    }
}
