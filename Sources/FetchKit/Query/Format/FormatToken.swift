/// One token of a predicate format string, with the UTF-8 range it came from.
struct FormatToken {
    /// What the token is.
    var kind: Kind
    /// The UTF-8 offset of its first byte.
    var start: Int
    /// The UTF-8 offset just past its last byte.
    var end: Int

    enum Kind {
        /// A name; `keyword` is set when it is a reserved word that was not escaped with `#`.
        case word(String, keyword: FormatKeyword?)
        case integer(Int64)
        case double(Double)
        case string(String)
        /// `$NAME`
        case variable(String)
        /// `@count` and the like.
        case aggregate(String)
        /// `%@`, `%K`, `%d`, `%f`...
        case argument(FormatSpecifier)
        /// `%%`
        case percent
        /// `==`, `<`, `<>`...
        case comparison(FetchPredicate.Operator)
        /// `&&`
        case and
        /// `||`
        case or
        /// `!`
        case not
        /// `+`, `-` (unless it is a number's sign), `*`, `/`
        case arithmetic(FetchPredicate.ArithmeticOperator)
        case openParen, closeParen, openBrace, closeBrace, openBracket, closeBracket, comma, dot
        case end
    }
}

/// A format specifier: what kind of argument it consumes.
enum FormatSpecifier: Equatable {
    /// `%@`: any value or list.
    case object
    /// `%K`: a key path given as a string.
    case key
    /// `%d`, `%i`, `%ld`...: an integer; the payload is the spelling.
    case integer(String)
    /// `%f`, `%lf`, `%e`, `%g`, `%a`...: a number.
    case double(String)
    /// `%s`, `%S`: a string (a C string in Foundation).
    case string(String)
    /// `%c`, `%C`: one character, given as a one-character string or its Unicode code point.
    case character(String)

    /// How it is written: `%@`, `%K`, `%ld`...
    var spelling: String {
        switch self {
        case .object: return "%@"
        case .key: return "%K"
        case .integer(let text), .double(let text), .string(let text), .character(let text): return text
        }
    }
}

/// The reserved words of the format language (matched case-insensitively).
enum FormatKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case between = "BETWEEN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"
    case null = "NULL"
    case `nil` = "NIL"
    case `true` = "TRUE"
    case yes = "YES"
    case `false` = "FALSE"
    case no = "NO"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case `self` = "SELF"
    case any = "ANY"
    case some = "SOME"
    case all = "ALL"
    case none = "NONE"
    case cast = "CAST"
    case subquery = "SUBQUERY"

    private static let byName: [String: FormatKeyword] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled `name` in any case, if it is one.
    init?(name: String) {
        guard name.utf8.count <= 15, let keyword = Self.byName[name.uppercased()] else { return nil }
        self = keyword
    }

    /// The comparison operator the keyword names, if it names one.
    var comparisonOperator: FetchPredicate.Operator? {
        switch self {
        case .in: return .in
        case .between: return .between
        case .beginsWith: return .beginsWith
        case .endsWith: return .endsWith
        case .contains: return .contains
        case .like: return .like
        case .matches: return .matches
        default: return nil
        }
    }
}

extension FormatToken.Kind {
    /// Whether an operand can end with this token, so that a `-` after it subtracts.
    var endsOperand: Bool {
        switch self {
        case .word(_, keyword: nil), .integer, .double, .string, .variable, .aggregate, .argument, .closeParen,
            .closeBrace:
            return true
        case .word(_, keyword: let keyword?):
            return [.null, .nil, .true, .yes, .false, .no, .self].contains(keyword)
        default:
            return false
        }
    }

    /// `AND` or `&&`.
    var isAnd: Bool {
        switch self {
        case .and, .word(_, keyword: .and?): return true
        default: return false
        }
    }

    /// `OR` or `||`.
    var isOr: Bool {
        switch self {
        case .or, .word(_, keyword: .or?): return true
        default: return false
        }
    }

    /// `NOT` or `!`.
    var isNot: Bool {
        switch self {
        case .not, .word(_, keyword: .not?): return true
        default: return false
        }
    }
}
