import Foundation
import ReplayDaemon

exit(Replayd.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
