import Foundation

exit(await SampleApp.run(Array(CommandLine.arguments.dropFirst())))
