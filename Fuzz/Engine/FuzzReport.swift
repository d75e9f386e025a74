/// What a fuzzing run found: counts, failures with their inputs, throughput and the slowest input.
public struct FuzzReport: Sendable, CustomStringConvertible {
    /// One broken property, on one input.
    public struct Failure: Sendable, CustomStringConvertible {
        /// Which property broke: an error's offset outside the string, a `predicateFormat` that does not parse,
        /// or parses to another predicate, or does not render back to itself, a validation that a second one
        /// changes, an input slower than the bound.
        public enum Kind: String, Sendable, CaseIterable {
            case offsetOutOfRange, formatDoesNotParse, roundTripDiffers, notFixedPoint, validationNotIdempotent, slow
        }

        public var kind: Kind
        /// The input's index in the run (it reproduces from the seed and the index).
        public var index: Int
        public var input: FuzzInput
        /// What was seen: the two predicates' formats, the error, the time.
        public var detail: String
        /// A smaller input with the same failure, when one was found.
        public var minimized: FuzzInput?

        public var description: String {
            var text = "[\(kind.rawValue)] #\(index): \(input)\n    \(detail)"
            if let minimized { text += "\n    minimized: \(minimized)" }
            return text
        }
    }

    public var seed: UInt64
    public var inputs = 0
    public var accepted = 0
    public var rejected = 0
    /// Accepted predicates that validated against at least one fixture entity.
    public var validatedPredicates = 0
    /// (predicate, entity) pairs that validated.
    public var validatedPairs = 0
    /// Statements compiled, over every validated pair and dialect.
    public var compiled = 0
    /// Validated pairs the compiler refused with an error (`MATCHES`, `[d]`… for a dialect without them).
    public var compileErrors = 0
    /// Inputs by origin.
    public var byOrigin: [FuzzInput.Origin: Int] = [:]
    /// Accepted inputs by origin.
    public var acceptedByOrigin: [FuzzInput.Origin: Int] = [:]
    /// The number of failures of each kind.
    public var failureCounts: [Failure.Kind: Int] = [:]
    /// The first few failures of each kind.
    public var failures: [Failure] = []
    /// The slowest input, its index and time in seconds.
    public var slowest: (index: Int, seconds: Double, input: FuzzInput)?
    /// The run's wall-clock time in seconds.
    public var seconds = 0.0

    public init(seed: UInt64) { self.seed = seed }

    /// Whether every property held on every input.
    public var passed: Bool { failureCounts.values.allSatisfy { $0 == 0 } }

    public var description: String {
        func percent(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "0 %" : String(Double(part * 1000 / whole) / 10) + " %"
        }
        let origins = FuzzInput.Origin.allCases.map {
            "\($0.rawValue) \(byOrigin[$0, default: 0]) (\(acceptedByOrigin[$0, default: 0]) accepted)"
        }
        var lines = [
            "seed \(seed): \(inputs) inputs in \(String(format2: seconds)) s, "
                + "\(Int(Double(inputs) / max(seconds, 1e-9))) inputs/s",
            "  by origin: " + origins.joined(separator: ", "),
            "  accepted \(accepted) (\(percent(accepted, inputs))), rejected \(rejected)",
            "  validated \(validatedPredicates) predicates, \(validatedPairs) (predicate, entity) pairs",
            "  compiled \(compiled) statements, \(compileErrors) compile errors"
        ]
        if let slowest {
            lines.append(
                "  slowest: #\(slowest.index), \(String(format2: slowest.seconds * 1000)) ms: "
                    + slowest.input.excerpt(limit: 120))
        }
        let broken = Failure.Kind.allCases.filter { failureCounts[$0, default: 0] > 0 }
        lines.append(
            broken.isEmpty
                ? "  failures: none"
                : "  failures: "
                    + broken.map { "\($0.rawValue) \(failureCounts[$0, default: 0])" }.joined(separator: ", "))
        lines += failures.map { "  " + $0.description }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `value` with two decimals.
    init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        self = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
