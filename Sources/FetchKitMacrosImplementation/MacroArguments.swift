import SwiftDiagnostics
import SwiftSyntax

/// The literal arguments of an attribute (`@Attribute(column: "x", indexed: true)`).
struct MacroArguments {
    private let arguments: [LabeledExprSyntax]

    init(_ attribute: AttributeSyntax) {
        if case .argumentList(let list) = attribute.arguments {
            arguments = Array(list)
        } else {
            arguments = []
        }
    }

    /// The argument labelled `label` (`nil`: the first unlabelled one).
    func argument(_ label: String?) -> LabeledExprSyntax? {
        arguments.first { $0.label?.text == label }
    }

    /// The string literal labelled `label`; a non-literal is reported to `problems`.
    func string(_ label: String?, problems: inout [Problem]) -> String? {
        guard let argument = argument(label) else { return nil }
        if argument.expression.is(NilLiteralExprSyntax.self) { return nil }
        guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
            literal.segments.count == 1, let segment = literal.segments.first?.as(StringSegmentSyntax.self)
        else {
            problems.append(Problem(argument.expression, .notALiteral(argument: label ?? "name", kind: "string")))
            return nil
        }
        return segment.content.text
    }

    /// The boolean literal labelled `label`; a non-literal is reported to `problems`.
    func bool(_ label: String, problems: inout [Problem]) -> Bool {
        guard let argument = argument(label) else { return false }
        guard let literal = argument.expression.as(BooleanLiteralExprSyntax.self) else {
            problems.append(Problem(argument.expression, .notALiteral(argument: label, kind: "boolean")))
            return false
        }
        return literal.literal.tokenKind == .keyword(.true)
    }
}

/// A diagnostic to report: the node at fault, the message, the fix-its.
struct Problem {
    var node: Syntax
    var message: EntityDiagnostic
    var fixIts: [SwiftDiagnostics.FixIt] = []

    init(_ node: some SyntaxProtocol, _ message: EntityDiagnostic, fixIts: [SwiftDiagnostics.FixIt] = []) {
        self.node = Syntax(node)
        self.message = message
        self.fixIts = fixIts
    }
}
