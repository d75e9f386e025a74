// Reads `swift package describe --type json` on standard input and fails when a unit test target reaches
// swift-syntax: through a macro target, or a target that depends on a swift-syntax product. Only the targets that
// test macros or need records declared with `@Entity` may: the macro tests, the conformance suite, the integration
// tests and the web example's tests. Run by .ci/check-unit-targets.sh.
import Foundation

let mayUseSwiftSyntax: Set<String> = [
    "FetchKitMacrosTests", "FetchKitConformanceTests", "FetchKitIntegrationTests", "LiveListTests"
]
let syntaxProducts: Set<String> = [
    "SwiftSyntax", "SwiftSyntaxMacros", "SwiftDiagnostics", "SwiftSyntaxBuilder", "SwiftCompilerPlugin",
    "SwiftSyntaxMacroExpansion", "SwiftSyntaxMacrosTestSupport", "SwiftSyntaxMacrosGenericTestSupport"
]

struct Target {
    let type: String
    let targets: [String]
    let products: [String]
}

let input = FileHandle.standardInput.readDataToEndOfFile()
guard let package = try JSONSerialization.jsonObject(with: input) as? [String: Any],
    let list = package["targets"] as? [[String: Any]]
else {
    FileHandle.standardError.write(Data("check-unit-targets: FAILED: no package description on stdin\n".utf8))
    exit(1)
}
var targets: [String: Target] = [:]
for entry in list {
    guard let name = entry["name"] as? String else { continue }
    targets[name] = Target(
        type: entry["type"] as? String ?? "", targets: entry["target_dependencies"] as? [String] ?? [],
        products: entry["product_dependencies"] as? [String] ?? [])
}

/// The first path from `name` to swift-syntax, if there is one.
func pathToSyntax(from name: String, seen: inout Set<String>) -> [String]? {
    guard seen.insert(name).inserted, let target = targets[name] else { return nil }
    if target.type == "macro" { return [name] }
    if let product = target.products.first(where: syntaxProducts.contains) { return [name, product] }
    for dependency in target.targets {
        if let path = pathToSyntax(from: dependency, seen: &seen) { return [name] + path }
    }
    return nil
}

var failed = false
var checked = 0
for (name, target) in targets.sorted(by: { $0.key < $1.key }) where target.type == "test" {
    guard !mayUseSwiftSyntax.contains(name) else { continue }
    checked += 1
    var seen: Set<String> = []
    if let path = pathToSyntax(from: name, seen: &seen) {
        FileHandle.standardError.write(
            Data("check-unit-targets: FAILED: \(name) reaches swift-syntax: \(path.joined(separator: " → "))\n".utf8))
        failed = true
    }
}
if failed { exit(1) }
print("check-unit-targets: none of \(checked) unit test targets reaches swift-syntax")
