/// Long flat chains of one binary operator, the inputs a server compiling its clients' predicates must
/// survive: `priority == 0 OR priority == 1 OR …` and `priority * priority * … > 0`, of any length.
///
/// `AND` and `OR` chains parse to one n-ary node, whatever their length; an arithmetic chain is one tree
/// level per operator, so past the parser's depth limit it is refused (`invalidPredicate` with the offset of
/// the operator that passes it).
public enum FuzzChains {
    /// Every binary operator of the format language as written between two operands: the logical ones (and
    /// their symbols), the arithmetic ones, and a mix of `+ - * /` that alternates precedence.
    public static let operators = ["AND", "OR", "&&", "||", "+", "-", "*", "/", "+-*/"]

    /// Whether `op` joins predicates (`AND`, `OR`, `&&`, `||`) rather than numbers.
    public static func isLogical(_ op: String) -> Bool { ["AND", "OR", "&&", "||"].contains(op) }

    /// A predicate over `Todo` of at least `bytes` UTF-8 bytes: terms joined by `op`, one of ``operators``.
    ///
    /// Logical chains join comparisons (`priority == 7 OR …`); arithmetic chains join key paths and
    /// numbers and end in a comparison (`priority * priority * … * 1 > 0`); `+-*/` cycles through the four.
    public static func chain(_ op: String, bytes: Int) -> String {
        var text = ""
        text.reserveCapacity(bytes + 32)
        var index = 0
        if isLogical(op) {
            while text.utf8.count < bytes {
                text += "priority == \(index % 10) \(op) "
                index += 1
            }
            return text + "done == NO"
        }
        let symbols = op == "+-*/" ? ["+", "-", "*", "/"] : [op]
        while text.utf8.count < bytes {
            text += (index % 2 == 0 ? "priority " : "2 ") + symbols[index % symbols.count] + " "
            index += 1
        }
        return text + "1 > 0"
    }
}
