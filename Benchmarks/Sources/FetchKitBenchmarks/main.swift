import Foundation

// Usage: swift run -c release fetchkit-benchmarks [fetch] [--rows N] [--iterations N]
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex,
        let parsed = Int(arguments[arguments.index(after: index)])
    else { return value }
    return parsed
}
let selected = Set(arguments.filter { !$0.hasPrefix("--") && Int($0) == nil })
let all = selected.isEmpty

if all || selected.contains("fetch") {
    try await FetchBenchmark.run(rows: option("--rows", default: 100_000), iterations: option("--iterations", default: 11))
}
if all || selected.contains("btree") { BTreeBenchmark.run(arguments: Array(arguments)) }
