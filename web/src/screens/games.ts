// Every game module, imported once for its registerGame call.
import "./cluedo/index";
import "./cops-n-robbers/index";
import "./candy-jar-clusters/index";
