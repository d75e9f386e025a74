extension PredicateFuzzer {
    /// A shorter input that still breaks `kind`: delta debugging on the format string's characters (whole
    /// chunks first, then single characters), then dropping trailing arguments. `nil` when nothing could go.
    ///
    /// - Complexity: at most `budget` checks.
    func minimize(_ input: FuzzInput, failingWith kind: FuzzReport.Failure.Kind, budget: Int = 4_000) -> FuzzInput? {
        var best = input
        var characters = Array(input.format)
        var checks = 0
        var chunk = max(1, characters.count / 2)
        while chunk >= 1 && checks < budget {
            var start = 0
            var removedAny = false
            while start < characters.count && checks < budget {
                var candidate = characters
                candidate.removeSubrange(start..<min(characters.count, start + chunk))
                var trial = best
                trial.format = String(candidate)
                checks += 1
                if fails(trial, with: kind) {
                    characters = candidate
                    best = trial
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        while !best.arguments.isEmpty && checks < budget {
            var trial = best
            trial.arguments.removeLast()
            checks += 1
            guard fails(trial, with: kind) else { break }
            best = trial
        }
        return best.format == input.format && best.arguments.count == input.arguments.count ? nil : best
    }
}
