import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitTesting

/// A seeded, bounded fuzzing run of the format parser, `predicateFormat`, validation and the SQL compiler.
///
/// Every input comes from the seed and its index alone, so input `#n` of a run reproduces with
/// ``input(at:)``. For each input:
/// - parsing returns or throws (a trap ends the process: the runner reports the input) within the time bound,
///   and an error's offset lies inside the string;
/// - an accepted predicate `p` round-trips: `FetchPredicate(format: p.predicateFormat) == p`, and rendering
///   that gives the same text again;
/// - for each fixture entity it validates against, validating again changes nothing and it compiles for
///   every dialect, or throws: errors are fine, traps are not.
///
/// ```swift
/// let fuzzer = PredicateFuzzer(seed: 1, count: 10_000, dialects: [.sqlite, .postgres])
/// let report = fuzzer.run()
/// #expect(report.passed, "\(report)")
/// ```
public struct PredicateFuzzer: Sendable {
    public let seed: UInt64
    public let count: Int
    /// The first index (a run of `count` inputs from `start` reproduces part of a longer run).
    public let start: Int
    /// An input that takes longer (parse, round trip, validation and compilation together) is a failure.
    public let timeBound: Duration
    /// The failures of each kind kept with their input (all are counted).
    public let examplesPerKind: Int
    let schema: Schema
    let compilers: [SQLCompiler]
    let keyPaths: FuzzKeyPaths

    /// A run of `count` inputs from index `start`, compiling for `dialects` against the fixture schema.
    public init(
        seed: UInt64, count: Int, start: Int = 0, dialects: [SQLDialect], timeBound: Duration = .seconds(1),
        examplesPerKind: Int = 3
    ) {
        self.seed = seed
        self.count = count
        self.start = start
        self.timeBound = timeBound
        self.examplesPerKind = examplesPerKind
        schema = Fixtures.schema
        compilers = dialects.map { SQLCompiler(schema: Fixtures.schema, dialect: $0) }
        keyPaths = FuzzKeyPaths(schema: Fixtures.schema)
    }

    // MARK: - Inputs

    /// Input `index` of this seed's run.
    public func input(at index: Int) -> FuzzInput {
        var seeder = SeededRandom(seed: seed &+ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        var random = SeededRandom(seed: seeder.next())
        let roll = random.int(0..<10_000)
        if roll < 3 { return FuzzInput(format: FuzzStressInputs.make(random.int(0..<1_000)), origin: .stress) }
        let paths = keyPaths.entities[random.int(0..<keyPaths.entities.count)].paths
        var grammar = FormatGrammar(random: random, keyPaths: paths)
        if roll < 5_000 {
            let format = grammar.predicate()
            return FuzzInput(format: format, arguments: grammar.arguments, origin: .grammar)
        }
        // A seed or a grammar string, mutated, with arguments for the specifiers it now has (or, one time in
        // five, the ones it had).
        let base = grammar.chance(50) ? grammar.pick(FuzzSeedCorpus.formats) : grammar.predicate(depth: 2)
        let partner = grammar.chance(50) ? grammar.pick(FuzzSeedCorpus.formats) : grammar.predicate(depth: 2)
        let kept = grammar.arguments
        var mutator = FormatMutator(random: grammar.random)
        let format = mutator.mutate(base, partner: partner)
        grammar.random = mutator.random
        if grammar.chance(20) { return FuzzInput(format: format, arguments: kept, origin: .mutation) }
        grammar.arguments = []
        for spelling in FuzzSpecifiers.scan(format) {
            grammar.arguments.append(grammar.argument(for: spelling, type: nil))
        }
        return FuzzInput(format: format, arguments: grammar.arguments, origin: .mutation)
    }

    // MARK: - The run

    /// Runs every input, calling `willCheck` before each (a runner's watchdog and crash report use it).
    public func run(willCheck: (Int, FuzzInput) -> Void = { _, _ in }) -> FuzzReport {
        var report = FuzzReport(seed: seed)
        let clock = ContinuousClock()
        let began = clock.now
        for index in start..<(start + count) {
            let input = input(at: index)
            willCheck(index, input)
            let inputBegan = clock.now
            let outcome = check(input)
            let elapsed = clock.now - inputBegan
            record(outcome, of: input, at: index, elapsed: elapsed, into: &report)
        }
        report.seconds = Self.seconds(clock.now - began)
        return report
    }

    private func record(
        _ outcome: Outcome, of input: FuzzInput, at index: Int, elapsed: Duration, into report: inout FuzzReport
    ) {
        report.inputs += 1
        report.byOrigin[input.origin, default: 0] += 1
        if outcome.accepted {
            report.accepted += 1
            report.acceptedByOrigin[input.origin, default: 0] += 1
        } else {
            report.rejected += 1
        }
        if outcome.validatedPairs > 0 { report.validatedPredicates += 1 }
        report.validatedPairs += outcome.validatedPairs
        report.compiled += outcome.compiled
        report.compileErrors += outcome.compileErrors
        let seconds = Self.seconds(elapsed)
        if seconds > report.slowest?.seconds ?? -1 { report.slowest = (index, seconds, input) }
        var failures = outcome.failures
        if elapsed > timeBound {
            failures.append((.slow, "took \(String(format2: seconds * 1000)) ms, bound \(timeBound)"))
        }
        for (kind, detail) in failures {
            report.failureCounts[kind, default: 0] += 1
            guard report.failureCounts[kind, default: 0] <= examplesPerKind else { continue }
            let minimized = kind == .slow ? nil : minimize(input, failingWith: kind)
            report.failures.append(.init(kind: kind, index: index, input: input, detail: detail, minimized: minimized))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
