import FetchKit

extension PredicateFuzzer {
    /// What one input did.
    struct Outcome {
        var accepted = false
        var validatedPairs = 0
        var compiled = 0
        var compileErrors = 0
        var failures: [(FuzzReport.Failure.Kind, String)] = []
    }

    /// Parses `input`, round-trips what it accepts, validates it against each fixture entity and compiles it
    /// for each dialect.
    func check(_ input: FuzzInput) -> Outcome {
        var outcome = Outcome()
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: input.format, argumentArray: input.arguments)
        } catch {
            // A parse error is malformed input or a refused construct, and says where.
            if let error = error as? FetchKitError, error.code == .invalidPredicate || error.code == .unsupported,
                !(0...input.format.utf8.count).contains(error.offset ?? -1)
            {
                outcome.failures.append((.offsetOutOfRange, "\(error)"))
            }
            return outcome
        }
        outcome.accepted = true
        let text = predicate.predicateFormat
        outcome.failures += Self.roundTripFailures(predicate, rendered: text)
        for entity in schema.entities {
            guard let validated = try? predicate.validated(for: entity, in: schema) else { continue }
            outcome.validatedPairs += 1
            if (try? validated.validated(for: entity, in: schema)) != validated {
                outcome.failures.append((.validationNotIdempotent, "\(entity.name): \(validated.predicateFormat)"))
            }
            for compiler in compilers {
                if (try? compiler.fetch(AnyFetchRequest(entity: entity.name, predicate: predicate))) != nil {
                    outcome.compiled += 1
                } else {
                    outcome.compileErrors += 1
                }
            }
        }
        return outcome
    }

    /// The round-trip properties of an accepted predicate: its format parses back to it, and is a fixed point.
    static func roundTripFailures(
        _ predicate: FetchPredicate, rendered text: String
    ) -> [(FuzzReport.Failure.Kind, String)] {
        let reparsed: FetchPredicate
        do {
            reparsed = try FetchPredicate(format: text)
        } catch {
            return [(.formatDoesNotParse, "predicateFormat \(String(reflecting: text)) throws \(error)")]
        }
        guard reparsed == predicate else {
            return [
                (
                    .roundTripDiffers,
                    "\(String(reflecting: text)) parses to \(String(reflecting: reparsed.predicateFormat)): "
                        + "\(predicate) vs \(reparsed)"
                )
            ]
        }
        let again = reparsed.predicateFormat
        guard again == text else {
            return [(.notFixedPoint, "\(String(reflecting: text)) renders again as \(String(reflecting: again))")]
        }
        return []
    }

    /// Whether `input` still breaks the property `kind`.
    func fails(_ input: FuzzInput, with kind: FuzzReport.Failure.Kind) -> Bool {
        check(input).failures.contains { $0.0 == kind }
    }
}
