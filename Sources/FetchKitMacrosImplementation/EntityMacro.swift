import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Entity`: conforms a struct to `FetchKit.EntityRecord` in an extension (which keeps the memberwise
/// initializer), or reports why it cannot.
public struct EntityMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            let keyword = declaration.introducer
            context.diagnose(Diagnostic(node: keyword, message: EntityDiagnostic.notAStruct(kind: "a " + keyword.text)))
            return []
        }
        if let generics = structure.genericParameterClause {
            let name = structure.name.trimmedDescription
            context.diagnose(Diagnostic(node: generics, message: EntityDiagnostic.genericType(type: name)))
            return []
        }
        var problems: [Problem] = []
        let arguments = MacroArguments(node)
        let typeName = structure.name.trimmedDescription
        let entityName = arguments.string(nil, problems: &problems) ?? typeName
        let table = arguments.string("table", problems: &problems) ?? entityName
        var properties: [StoredProperty] = []
        for member in structure.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let declared = StoredProperty.parse(variable, problems: &problems)
            for property in declared {
                if case .primaryKey = property.kind, properties.contains(where: \.isPrimaryKey) {
                    let marker = variable.attributes.first {
                        $0.as(AttributeSyntax.self).flatMap(Markers.name) == "PrimaryKey"
                    }
                    let node = marker.map(Syntax.init) ?? Syntax(variable)
                    problems.append(Problem(node, .duplicatePrimaryKey(property: property.name)))
                    continue
                }
                properties.append(property)
            }
        }
        if !properties.contains(where: \.isPrimaryKey) && problems.isEmpty {
            problems.append(missingPrimaryKey(structure))
        }
        guard problems.isEmpty else {
            for problem in problems {
                context.diagnose(Diagnostic(node: problem.node, message: problem.message, fixIts: problem.fixIts))
            }
            return []
        }
        let expansion = EntityExpansion(
            typeName: typeName, entityName: entityName, table: table, properties: properties,
            access: accessModifier(of: structure), conforms: !protocols.isEmpty)
        return [
            try ExtensionDeclSyntax(
                SyntaxNodeString(stringLiteral: expansion.source(extending: type.trimmedDescription)))
        ]
    }

    /// No `@PrimaryKey`: reported at the type's name, with a fix-it that declares an integer key.
    private static func missingPrimaryKey(_ structure: StructDeclSyntax) -> Problem {
        var members = structure.memberBlock.members
        let indentation = members.first?.leadingTrivia ?? .newline + .spaces(4)
        let key = MemberBlockItemSyntax(
            leadingTrivia: indentation,
            decl: DeclSyntax("@PrimaryKey var id: Int64?"))
        members.insert(key, at: members.startIndex)
        let fix = FixIt.replace(
            message: EntityFixIt(message: "insert '@PrimaryKey var id: Int64?'"),
            oldNode: structure.memberBlock.members,
            newNode: members)
        return Problem(structure.name, .missingPrimaryKey(type: structure.name.text), fixIts: [fix])
    }

    /// `public ` for a public type (members take the type's access level), `""` for an internal one.
    private static func accessModifier(of structure: StructDeclSyntax) -> String {
        for modifier in structure.modifiers {
            switch modifier.name.text {
            case "public", "open": return "public "
            case "package": return "package "
            default: continue
            }
        }
        return ""
    }
}

extension StoredProperty {
    var isPrimaryKey: Bool {
        if case .primaryKey = kind { return true }
        return false
    }
}
