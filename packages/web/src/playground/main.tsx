import '../app/mantine.css';
import 'virtual:ninefold-theme.css';
import '../app/app.css';
import '../extension/extension.css';
import { boot } from './start';

void boot();
