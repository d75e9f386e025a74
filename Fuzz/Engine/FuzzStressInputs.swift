/// Long and deeply nested format strings: each must be parsed (or rejected) well within the time bound,
/// which a parser that is not linear in its input would miss, and without a deep recursion: long flat chains
/// of every binary operator (``FuzzChains``) among them.
enum FuzzStressInputs {
    static func make(_ index: Int) -> String {
        let n = 20_000
        let chains = FuzzChains.operators
        if index % (12 + chains.count) >= 12 {
            return FuzzChains.chain(chains[index % (12 + chains.count) - 12], bytes: 100_000)
        }
        switch index % 12 {
        case 0: return String(repeating: "(", count: n) + "title == 'a'" + String(repeating: ")", count: n)
        case 1: return String(repeating: "(", count: 100) + "title == 'a'" + String(repeating: ")", count: 100)
        case 2: return String(repeating: "NOT ", count: 100) + "done == YES"
        case 3: return String(repeating: "!(", count: n)
        case 4: return "title == '" + String(repeating: "abcdefghij", count: n) + "'"
        case 5: return "title == '" + String(repeating: "\\u00e9\\n", count: n) + "'"
        case 6: return "priority IN {" + (0..<n).map(String.init).joined(separator: ", ") + "}"
        case 7: return (0..<2_000).map { "priority == \($0)" }.joined(separator: " AND ")
        case 8: return (0..<2_000).map { "(title == '\($0)' OR done == NO)" }.joined(separator: " && ")
        case 9: return String(repeating: "category.", count: n) + "name == 'x'"
        case 10: return "title == " + String(repeating: "9", count: n)
        default: return String(repeating: "title == 'a' AND ", count: n / 4) + "("
        }
    }
}
